import { EmulatedFabric, runUntilSettled, YarcFabricSim, YarcMaintenanceController } from '@weft/emulator';
import { loadInstallationFile } from '@weft/fabric-model';
import { join } from 'node:path';
import { discoverFabric } from '../discovery/discovery-sweep';
import { matchDesign } from '../discovery/match-design';
import type { KnownFabric } from '../discovery/known-fabric';
import { PORT_UNUSED } from './blackwidow-engine';
import { configureBlackWidow, faultSet } from './configure-blackwidow';
import { executePlan, planPush, planWrites, reconcileImage, routerRegisters } from './push-plan';

async function fabric288() {
  const installation = loadInstallationFile(join(__dirname, '../../../../fixtures/blackwidow/bw-r1.5-288.json'));
  const sim = new YarcFabricSim(new EmulatedFabric(installation.physical));
  const controller = new YarcMaintenanceController(sim, 0);
  const discovered = await runUntilSettled(sim, discoverFabric(controller, { controllerPorts: [0, 1, 2, 3] }), 1e9, 2_000);
  const known: KnownFabric = { discovered, matched: matchDesign(discovered, installation.expected), design: installation.expected, attachment: 'p0' };
  return { sim, controller, known };
}

describe('push plans', () => {
  it('write everything to a fabric that holds nothing, prepare before tables; nothing when nothing changed', async () => {
    const { known } = await fabric288();
    const { image } = configureBlackWidow(known);
    const plan = planPush(null, image);
    expect(plan.phases.map((p) => p.name)).toEqual(['prepare', 'tables of rank 1']);
    expect(planWrites(plan)).toBe(image.routers.reduce((n, r) => n + routerRegisters(r).length, 0));
    expect(plan.phases[1].writes.every((w) => w.register === 'routingTable')).toBe(true);
    expect(planPush(image, image).phases).toEqual([]);
  });

  it('for a sidelink taken out of service: the changed table entries, then the two ports retired after the tables stop using them', async () => {
    const { known } = await fabric288();
    const before = configureBlackWidow(known).image;
    const after = configureBlackWidow(known, faultSet([{ kind: 'link', chip: 's0.r1.2', port: 40 }])).image;
    const plan = planPush(before, after);
    expect(plan.phases.map((p) => p.name)).toEqual(['tables of rank 1', 'retire']);
    // Only slice 0 changes, and far less than a full push.
    expect(plan.phases.flatMap((p) => p.writes).every((w) => w.router.startsWith('s0.'))).toBe(true);
    expect(planWrites(plan)).toBeLessThan(planWrites(planPush(null, after)) / 10);
    const retired = plan.phases[1].writes;
    expect(retired.map((w) => w.register)).toEqual(['portDirections', 'portDirections']);
    const cable = known.matched.cables.find((c) => [c.a, c.b].some((e) => e.chip === 's0.r1.2' && e.port === 40))!;
    expect(retired.map((w) => w.router).sort()).toEqual([cable.a.chip, cable.b.chip].sort());
    for (const end of [cable.a, cable.b]) expect(retired.find((w) => w.router === end.chip)!.value[end.port]).toBe(PORT_UNUSED);
  });

  it('reconciles a fabric left half-written: reads every register back, rewrites only what differs', async () => {
    const { sim, controller, known } = await fabric288();
    const { image } = configureBlackWidow(known);
    const plan = planPush(null, image);
    // A push that died after its first phase: the tables were never written.
    const partial = await runUntilSettled(sim, executePlan(controller, { phases: plan.phases.slice(0, 1) }), 1e9, 2_000);
    expect(partial).toMatchObject({ phasesDone: 1, failures: [] });
    const first = await runUntilSettled(sim, reconcileImage(controller, image), 1e9, 2_000);
    expect(first).toMatchObject({ checked: planWrites(plan), failures: [] });
    // Table entries that are empty read back as empty from a reset chip: only the rest is rewritten.
    const emptyEntries = plan.phases[1].writes.filter((w) => w.value[0] === 0).length;
    expect(first.rewritten).toBe(plan.phases[1].writes.length - emptyEntries);
    expect(await runUntilSettled(sim, reconcileImage(controller, image), 1e9, 2_000)).toMatchObject({ rewritten: 0, failures: [] });
  });
});
