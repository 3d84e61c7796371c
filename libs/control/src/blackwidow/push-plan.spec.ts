import { EmulatedFabric, runUntilSettled, YarcFabricSim, YarcMaintenanceController } from '@weft/emulator';
import { loadInstallationFile } from '@weft/fabric-model';
import { join } from 'node:path';
import { discoverFabric } from '../discovery/discovery-sweep';
import { matchDesign } from '../discovery/match-design';
import type { KnownFabric } from '../discovery/known-fabric';
import { PORT_UNUSED } from './blackwidow-engine';
import { configureBlackWidow, faultSet } from './configure-blackwidow';
import { designAsDiscovered } from '../discovery/known-fabric';
import { routerCables, smallDesign } from '../testing/small-fabrics';
import { BlackWidowConfigurator } from './incremental-configuration';
import { keyedChanges, planPush, reconcileImage, routerRegisters, sameShape, shapedChanges, tableWriteOrder } from './push-plan';
import { executePlan, planWrites } from '../engine/push-plan';

async function fabric288() {
  const installation = loadInstallationFile(join(__dirname, '../../../../fixtures/blackwidow/bw-r1.5-288.json'));
  const sim = new YarcFabricSim(new EmulatedFabric(installation.physical));
  const controller = new YarcMaintenanceController(sim, 0);
  const discovered = await runUntilSettled(sim, discoverFabric(controller, { controllerPorts: [0, 1, 2, 3] }), 1e9, 2_000);
  const known: KnownFabric = { discovered, matched: matchDesign(discovered, installation.expected), design: installation.expected, attachment: 'p0' };
  return { sim, controller, known };
}

describe('push plans', () => {
  it('compare routers of the same shape field by field, skipping what the engine kept, and find exactly the writes the general comparison finds', () => {
    const design = smallDesign('R2', 512, 3);
    const known = designAsDiscovered(design, 'p0');
    const cables = routerCables(design);
    const r2 = design.chips.find((c) => c.kind === 'router' && c.rank === 2)!.name;
    const configurator = new BlackWidowConfigurator(known);
    const link = (i: number) => ({ kind: 'link', chip: cables[i].a.chip, port: cables[i].a.port });
    const steps = [[], [link(5)], [link(5), link(40)], [link(40), { kind: 'router', chip: r2, port: null }], [link(40)], []];
    let previous = configurator.configure(faultSet([])).image;
    let shaped = 0;
    for (const faults of steps) {
      const next = configurator.configure(faultSet(faults)).image;
      // Both as the engine made them (shared objects) and as read back from the store (none shared).
      for (const before of [previous, JSON.parse(JSON.stringify(previous)) as typeof previous]) {
        const held = new Map(before.routers.map((r) => [r.name, r]));
        for (const router of next.routers) {
          const old = held.get(router.name);
          if (!old || !sameShape(old, router)) continue;
          const fast = shapedChanges(old, router);
          shaped += fast.changes.length;
          const general = keyedChanges(old, router);
          expect(fast.changes).toEqual(general.changes);
          for (const vr of router.virtualRouters) expect(fast.heldTable(vr.tiles)).toEqual(general.heldTable(vr.tiles));
        }
      }
      previous = next;
    }
    // Writes found and compared, not just routers passed over.
    expect(shaped).toBeGreaterThan(100);
  });

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

describe('the order of a table’s writes', () => {
  /** An entry routing the 32 processors of subtree `s` to port 40 + s. */
  const subtree = (s: number) => [1, s * 32, 31, 0, 1 << (8 + s)];
  const empty = [0, 0, 0, 0, 0];
  /** Blocks of 32 processors without a route in a table (§5.1: the highest matching entry wins). */
  const unrouted = (table: readonly (readonly number[])[], subtrees: number) =>
    Array.from({ length: subtrees }, (_, s) => s).filter((s) => {
      for (let e = table.length - 1; e >= 0; e--) if (table[e][0] && ((s * 32) ^ table[e][1]) >> 5 === 0) return table[e][3] + table[e][4] === 0;
      return true;
    });
  /** Plays the steps on `held` and collects the subtrees both tables route that lost their route on the way. */
  const holesOnTheWay = (held: number[][], next: number[][], steps: number[][]) => {
    const either = new Set([...unrouted(held, 8), ...unrouted(next, 8)]);
    const table = held.map((w) => [...w]);
    const seen = new Set<number>();
    for (const step of steps)
      for (const e of step) {
        table[e] = next[e];
        for (const s of unrouted(table, 8)) if (!either.has(s)) seen.add(s);
      }
    return [...seen];
  };

  it('keeps every subtree routed while entries move up the table (a router back from the dead takes its place again)', () => {
    // Before: subtree 3 unreachable, so subtrees 4–7 sit one entry lower; after, each in its own.
    const held = [subtree(0), subtree(1), subtree(2), subtree(4), subtree(5), subtree(6), subtree(7), empty];
    const next = [0, 1, 2, 3, 4, 5, 6, 7].map(subtree);
    // Written in index order, entry 3 (4 → 3) would leave subtree 4 without a route until entry 4 is written.
    expect(holesOnTheWay(held, next, [[3], [4], [5], [6], [7]])).toEqual([4, 5, 6, 7]);
    const { steps, holes } = tableWriteOrder(held, next, [3, 4, 5, 6, 7]);
    expect(steps).toEqual([[7], [6], [5], [4], [3]]);
    expect(holes).toBe(0);
    expect(holesOnTheWay(held, next, steps)).toEqual([]);
  });

  it('keeps every subtree routed while entries move down (the router dies)', () => {
    const held = [0, 1, 2, 3, 4, 5, 6, 7].map(subtree);
    const next = [subtree(0), subtree(1), subtree(2), subtree(4), subtree(5), subtree(6), subtree(7), empty];
    const { steps, holes } = tableWriteOrder(held, next, [3, 4, 5, 6, 7]);
    expect(holes).toBe(0);
    expect(steps).toEqual([[3], [4], [5], [6], [7]]);
    expect(holesOnTheWay(held, next, steps)).toEqual([]);
  });

  it('writes a table that routes nothing yet in one step, and counts the holes two swapping entries cannot avoid', () => {
    expect(tableWriteOrder([empty, empty], [subtree(0), subtree(1)], [0, 1])).toEqual({ steps: [[0, 1]], holes: 0 });
    const swapped = tableWriteOrder([subtree(0), subtree(1)], [subtree(1), subtree(0)], [0, 1]);
    expect(swapped.steps).toEqual([[0], [1]]);
    expect(swapped.holes).toBe(1);
  });
});
