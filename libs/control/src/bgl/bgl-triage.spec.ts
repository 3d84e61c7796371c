import { join } from 'node:path';
import { BglMaintenanceController, BglTorusSim, EmulatedFabric } from '@weft/emulator';
import { InterruptRecord, loadInstallationFile } from '@weft/fabric-model';
import { FaultSet } from '../faults/fault-set';
import { discoverBgl } from './bgl-discovery';
import { triageBglInterrupts } from './bgl-registry';

const installation = loadInstallationFile(join(__dirname, '../../../../fixtures/bgl/bgl-midplane-512.json'));

describe('BlueGene/L triage (over the JTAG control network)', () => {
  it('declares a cut cable and a dead node from link-down interrupts, but not a link that was down and is up again by the time it is handled', async () => {
    const fabric = new EmulatedFabric(installation.physical);
    const sim = new BglTorusSim(fabric, 1);
    const jtag = new BglMaintenanceController(sim);
    const known = await discoverBgl(jtag, installation.expected);
    const serial = (name: string) => [...known.matched.names].find(([, n]) => n === name)![0];
    const linkDown = (chip: string, port: number): InterruptRecord => ({ kind: 'LINK_DOWN', emulatedTimeNs: 0, serial: serial(chip), port });
    const triage = (interrupts: InterruptRecord[]) =>
      triageBglInterrupts(interrupts, jtag, { known, faults: FaultSet.NONE, interruptFaults: [], downHistory: new Map() });

    // x+ of x1.y1.z1 (port 0) goes to x2.y1.z1: cut, both nodes answer — a cable fault.
    sim.cutLink(fabric.chipId('x1.y1.z1'), 0);
    expect(await triage([linkDown('x1.y1.z1', 0)])).toMatchObject([{ action: 'declare', kind: 'link', chip: 'x1.y1.z1', port: 0 }]);
    sim.restoreLink(fabric.chipId('x1.y1.z1'), 0);

    // x4.y4.z4 dies: its neighbour's link-down names it, and it does not answer — a dead node.
    sim.killNode(fabric.chipId('x4.y4.z4'));
    expect(await triage([linkDown('x3.y4.z4', 0)])).toMatchObject([{ action: 'declare', kind: 'router', chip: 'x4.y4.z4' }]);
    // Replaced at once, before that interrupt was handled: it answers, and the link is up — nothing to declare.
    sim.reviveNode(fabric.chipId('x4.y4.z4'));
    expect(await triage([linkDown('x3.y4.z4', 0)])).toMatchObject([{ action: 'none', reason: 'x3.y4.z4:0 went down and is up again' }]);
  });
});
