import { bglControlAddress, generateBglDesign, InterruptRecord, loadInstallationFile, MODEL_BGL_NODE, Torus } from '@weft/fabric-model';
import { join } from 'node:path';
import { EmulatedFabric } from '../emulated-fabric';
import { chipSerial } from '../engine/maintenance-message';
import { BglMaintenanceController } from './bgl-maintenance';
import { BglTorusSim } from './bgl-torus-sim';

function midplane(design = generateBglDesign({ shape: [8, 8, 8], midplaneLinkCycles: 3, cableLinkCycles: 10 })) {
  const sim = new BglTorusSim(new EmulatedFabric(design), 1);
  return { sim, jtag: new BglMaintenanceController(sim) };
}
const torus = new Torus([8, 8, 8]);
const at = (x: number, y: number, z: number) => bglControlAddress(torus, torus.index(x, y, z));

describe('BlueGene/L over its JTAG control network (paper 002 §1)', () => {
  it('a node answers at its place in the packaging: identity, coordinates, and each link with the serial and port at its far end', async () => {
    const { jtag } = midplane();
    expect(await jtag.read(at(3, 4, 5), 'nodeIdentity')).toMatchObject({ ok: true, value: [MODEL_BGL_NODE, chipSerial('x3.y4.z5')] });
    expect(await jtag.read(at(3, 4, 5), 'torusCoordinates')).toMatchObject({ ok: true, value: [3, 4, 5] });
    // x+ of (7,4,5) wraps round to (0,4,5)'s x− port.
    expect(await jtag.read(at(7, 4, 5), 'linkState', 0)).toMatchObject({ ok: true, value: [1, chipSerial('x0.y4.z5'), 1] });
    const all = await jtag.readMany([at(0, 0, 0), at(1, 0, 0), [9, 0, 0, 0]], 'nodeIdentity', 64);
    expect(all.map((r) => r.ok)).toEqual([true, true, false]);
    expect(all[2]).toMatchObject({ reason: 'timeout', detail: 'no node answered at control-network address 9.0.0.0' });
  });

  it('a miscabled link reports the node it really reaches', async () => {
    const miscabled = loadInstallationFile(join(__dirname, '../../../../fixtures/bgl/bgl-midplane-512-miscabled.json'));
    const { jtag } = midplane(miscabled.physical);
    expect(await jtag.read(at(7, 0, 0), 'linkState', 0)).toMatchObject({ ok: true, value: [1, chipSerial('x0.y1.z0'), 1] });
  });

  it('registers are written and read back; a value the node cannot take is rejected, naming why, and nothing changes', async () => {
    const { sim, jtag } = midplane();
    expect(await jtag.write(at(1, 2, 3), 'neighbourCoordinates', 0, [2, 2, 3])).toMatchObject({ ok: true });
    expect(await jtag.read(at(1, 2, 3), 'neighbourCoordinates', 0)).toMatchObject({ ok: true, value: [2, 2, 3] });
    expect(await jtag.writeMany(at(1, 2, 3), 'hintCutoffPlus', [0, 1, 2], [5])).toMatchObject({ ok: true });
    expect(await jtag.write(at(1, 2, 3), 'hintCutoffMinus', 1, [8])).toMatchObject({
      ok: false,
      reason: 'rejected',
      detail: 'hintCutoffMinus: one coordinate of the y ring (0 to 7), got [8]',
    });
    expect(await jtag.write(at(1, 2, 3), 'arbitration', 0, [750, 1000, 0])).toMatchObject({ ok: true });
    expect(await jtag.read(at(1, 2, 3), 'arbitration')).toMatchObject({ ok: true, value: [750, 1000, 0] });
    const table = [8, 1, 2, 3, 0, 8, 0, 8, 1, 1, -1, 0, 0, 0];
    expect(await jtag.write(at(1, 2, 3), 'routeOverrides', 0, table)).toMatchObject({ ok: true });
    expect(await jtag.write(at(1, 2, 3), 'routeOverrides', 0, [8, 2, 2, 3, 0, 8, 0, 8, 0])).toMatchObject({
      ok: false,
      detail: 'routeOverrides: entry 1 runs past the end of the table',
    });
    expect(await jtag.read(at(1, 2, 3), 'routeOverrides')).toMatchObject({ ok: true, value: table });
    expect(await jtag.write(at(1, 2, 3), 'torusCoordinates', 0, [0, 0, 0])).toMatchObject({ ok: false, detail: 'torusCoordinates: read only' });
    expect(await jtag.read(at(1, 2, 3), 'datelines')).toMatchObject({ ok: false, reason: 'no-such-register' });
    expect(sim.cutoffMinus[3 * torus.index(1, 2, 3) + 1]).toBe(-1);
  });

  it('a dead node does not answer, and its neighbours raise link-down interrupts naming themselves', async () => {
    const { sim, jtag } = midplane();
    const interrupts: InterruptRecord[] = [];
    jtag.onInterrupt((i) => interrupts.push(i));
    sim.killNode(torus.index(2, 2, 2));
    expect(await jtag.read(at(2, 2, 2), 'nodeIdentity')).toMatchObject({ ok: false, reason: 'timeout' });
    expect(
      interrupts
        .filter((i) => i.kind === 'LINK_DOWN')
        .map((i) => i.serial)
        .sort(),
    ).toEqual(['x3.y2.z2', 'x1.y2.z2', 'x2.y3.z2', 'x2.y1.z2', 'x2.y2.z3', 'x2.y2.z1'].map(chipSerial).sort());
    expect(await jtag.read(at(3, 2, 2), 'linkState', 1)).toMatchObject({ ok: true, value: [0, 0, -1] });
  });
});
