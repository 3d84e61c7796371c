import { chipSerial, EmulatedFabric, runUntilSettled, YarcFabricSim, YarcMaintenanceController } from '@weft/emulator';
import { loadInstallationFile } from '@weft/fabric-model';
import { join } from 'node:path';
import { discoverFabric } from './discovery-sweep';
import { matchDesign } from './match-design';

const fixture = (name: string) => loadInstallationFile(join(__dirname, '../../../../fixtures/blackwidow', `${name}.json`));

/** Discovers an installation through the emulator's maintenance transport only. */
async function discover(name: string) {
  const installation = fixture(name);
  const sim = new YarcFabricSim(new EmulatedFabric(installation.physical));
  const controller = new YarcMaintenanceController(sim, 0);
  const start = sim.cycle;
  const result = await runUntilSettled(sim, discoverFabric(controller, { controllerPorts: [0, 1, 2, 3] }), 50_000_000, 2_000);
  return { installation, sim, result, cycles: sim.cycle - start, matched: matchDesign(result, installation.expected) };
}

describe('discovery (directed-route sweep through the maintenance transport)', () => {
  it('finds every chip and cable of the 288-processor R1.5 fabric and names each chip as the design does', async () => {
    const { installation, result, matched } = await discover('bw-r1.5-288');
    expect(result.chips).toHaveLength(installation.expected.chips.length);
    expect(result.links).toHaveLength(installation.expected.cables.length);
    expect(result.unanswered).toEqual([]);
    expect(matched.findings).toEqual([]);
    // Ground truth, for the test only: every name is right.
    for (const [serial, name] of matched.names) expect(chipSerial(name)).toBe(serial);
  });

  it('reports the two miswired sidelinks, naming both ends and what the design wanted', async () => {
    const { matched } = await discover('bw-r1.5-288-miswired');
    expect(matched.findings.map((f) => f.message).sort()).toEqual([
      'cable s0.r1.0:32–s0.r1.2:32 is miswired; the design has s0.r1.0:32–s0.r1.1:32 and s0.r1.0:36–s0.r1.2:32',
      'cable s0.r1.0:36–s0.r1.1:32 is miswired; the design has s0.r1.0:36–s0.r1.2:32 and s0.r1.0:32–s0.r1.1:32',
    ]);
  });

  it('reports the missing sidelink and nothing else', async () => {
    const { matched } = await discover('bw-r1.5-288-missing-cable');
    expect(matched.findings).toEqual([
      {
        kind: 'missing-cable',
        message: 'cable s2.r1.4:56–s2.r1.7:48 is missing (no live link at either end)',
        ends: [
          { chip: 's2.r1.4', port: 56 },
          { chip: 's2.r1.7', port: 48 },
        ],
      },
    ]);
  });

  it('finds every chip and cable of the 1024-processor R2 fabric, virtual routers included', async () => {
    const { installation, result, matched } = await discover('bw-r2-1024');
    expect(result.chips).toHaveLength(installation.expected.chips.length);
    expect(result.links).toHaveLength(installation.expected.cables.length);
    expect(matched.findings).toEqual([]);
    for (const [serial, name] of matched.names) expect(chipSerial(name)).toBe(serial);
  });
});
