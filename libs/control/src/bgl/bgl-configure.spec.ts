import { join } from 'node:path';
import { BglMaintenanceController, BglTorusSim, EmulatedFabric } from '@weft/emulator';
import { keyedDraw, loadInstallationFile } from '@weft/fabric-model';
import { driveEngine } from '../engine/driver';
import { FaultSet } from '../faults/fault-set';
import { discoverBgl } from './bgl-discovery';
import { pushBglImage } from './bgl-registry';
import { BglImage, BglRoutingEngine } from './bgl-routing-engine';

const fixture = (name: string) => loadInstallationFile(join(__dirname, `../../../../fixtures/bgl/${name}.json`));

/** Discover, compute, prove, push over JTAG; then every live node sends to a sample of others, and every packet must arrive. */
async function configureAndRun(name: string, dead: string[] = []) {
  const installation = fixture(name);
  const fabric = new EmulatedFabric(installation.physical);
  const sim = new BglTorusSim(fabric, 1);
  for (const node of dead) sim.killNode(fabric.chipId(node));
  const jtag = new BglMaintenanceController(sim);
  const known = await discoverBgl(jtag, installation.expected);
  const engine = new BglRoutingEngine(known);
  const outcome = driveEngine(engine, FaultSet.NONE);
  const push = outcome.pushable ? await pushBglImage(jtag, null, outcome.computed.image as BglImage) : null;
  const live = Array.from({ length: sim.nodes }, (_, n) => n).filter((n) => !sim.dead[n]);
  sim.run(4000, (cycle) => {
    if (cycle % 8 !== 0) return;
    for (const s of live) {
      if (keyedDraw(5, 1, s, cycle) >= 0.1) continue;
      const t = live[(keyedDraw(5, 2, s, cycle) * live.length) | 0];
      if (t !== s) sim.send(s, t, 8);
    }
  });
  sim.drain(200000);
  return { known, outcome, push, sim };
}

describe('BlueGene/L configured end to end over the control network (discover → compute → prove → push → run)', () => {
  it('a midplane with three dead nodes: the proof holds, every live node is written, and traffic between live nodes all arrives', async () => {
    const { known, outcome, push, sim } = await configureAndRun('bgl-midplane-512', ['x1.y2.z3', 'x2.y2.z3', 'x1.y3.z3']);
    expect(known.matched.findings.map((f) => f.kind)).toEqual(['unreachable-chip', 'unreachable-chip', 'unreachable-chip']);
    expect(outcome.verification.violations).toEqual([]);
    expect(outcome.verification.pairsProven).toBe(509 * 508);
    expect(push).toMatchObject({ nodes: 509, failures: [] });
    expect(sim.injected).toBeGreaterThan(10000);
    expect({ inFlight: sim.inFlight, discarded: [...sim.discarded] }).toEqual({ inFlight: 0, discarded: [] });
  });

  it('the miscabled midplane: the swapped cables are not routed over, and nothing is misrouted', async () => {
    const { outcome, sim } = await configureAndRun('bgl-midplane-512-miscabled');
    expect(outcome.verification.violations).toEqual([]);
    expect({ inFlight: sim.inFlight, discarded: [...sim.discarded], delivered: sim.delivered }).toEqual({
      inFlight: 0,
      discarded: [],
      delivered: sim.injected,
    });
  });

  it('a configuration that would deadlock (bubble accounting by size, packets of several sizes) is refused, never pushed', async () => {
    const installation = fixture('bgl-midplane-512');
    const sim = new BglTorusSim(new EmulatedFabric(installation.physical), 1);
    const known = await discoverBgl(new BglMaintenanceController(sim), installation.expected);
    const engine = new BglRoutingEngine(known, { ...new BglRoutingEngine(known).policy, bubbleAccounting: 'by-size' });
    const outcome = driveEngine(engine, FaultSet.NONE);
    expect(outcome.pushable).toBe(false);
    expect(outcome.verification.violations.map((v) => v.kind)).toEqual(['bubble-configuration']);
  });
  it('a fault set broadcast naming another tie rule than the hint registers follow is not proven', async () => {
    const installation = fixture('bgl-midplane-512');
    const fabric = new EmulatedFabric(installation.physical);
    const sim = new BglTorusSim(fabric, 1);
    sim.killNode(fabric.chipId('x1.y2.z3'));
    const engine = new BglRoutingEngine(await discoverBgl(new BglMaintenanceController(sim), installation.expected));
    const computed = engine.compute(FaultSet.NONE);
    const faultSet = computed.image.faultSet!;
    // The last word names the rule: source parity (1), the default policy's.
    expect(faultSet[faultSet.length - 1]).toBe(1);
    expect(engine.verify(computed).violations).toEqual([]);
    const plus = { ...computed, image: { ...computed.image, faultSet: [...faultSet.slice(0, -1), 0] } };
    expect(engine.verify(plus).violations).toEqual([
      { kind: 'not-proven', message: 'the fault set broadcast names the tie rule plus; the hint registers follow source-parity' },
    ]);
  });
});
