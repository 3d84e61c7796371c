import type { VerificationReport } from './verification';
import { FaultSet } from '../faults/fault-set';
import { driveEngine } from './driver';
import type { EngineComputation, RoutingEngine } from './routing-engine';

type Image = { routers: { name: string }[] };

/** An engine whose proofs come out as told, recording what the driver asked of it. */
function engineProving(verdicts: { incremental: boolean; full: boolean }) {
  const calls: string[] = [];
  const verdict = (ok: boolean): VerificationReport =>
    ({
      ok,
      violations: ok ? [] : [{ kind: 'loop', message: 'a loop' }],
      pairsProven: 0,
      endpointsProven: 0,
      states: 0,
      maxHops: 0,
    }) as unknown as VerificationReport;
  const engine: RoutingEngine<Image> = {
    name: 'test',
    compute: (faults, options) => {
      calls.push(options?.full ? 'compute full' : 'compute');
      return { faults, incremental: !options?.full, image: { routers: [] }, changedRouters: [] };
    },
    verify: (computed: EngineComputation<Image>) => {
      calls.push(`verify ${computed.incremental ? 'incremental' : 'full'}`);
      return verdict(computed.incremental ? verdicts.incremental : verdicts.full);
    },
    adopt: (computed, verification) => calls.push(`adopt ${computed.incremental ? 'incremental' : 'full'} ${verification.ok ? 'proven' : 'refused'}`),
    unreachable: () => [],
  };
  return { engine, calls };
}

describe('the routing-engine driver', () => {
  it('has a computed configuration proven before it lets it be pushed', () => {
    const { engine, calls } = engineProving({ incremental: true, full: true });
    const outcome = driveEngine(engine, FaultSet.NONE);
    expect(outcome).toMatchObject({ engine: 'test', pushable: true, fellBack: false });
    expect(calls).toEqual(['compute', 'verify incremental', 'adopt incremental proven']);
  });

  it('computes again in full when an incremental configuration fails its proof, and proves that', () => {
    const { engine, calls } = engineProving({ incremental: false, full: true });
    expect(driveEngine(engine, FaultSet.NONE)).toMatchObject({ pushable: true, fellBack: true });
    expect(calls).toEqual(['compute', 'verify incremental', 'compute full', 'verify full', 'adopt full proven']);
  });

  it('refuses to let a configuration that is still not proven be pushed, and adopts it as refused', () => {
    const { engine, calls } = engineProving({ incremental: false, full: false });
    const outcome = driveEngine(engine, FaultSet.NONE);
    expect(outcome).toMatchObject({ pushable: false, fellBack: true });
    expect(outcome.verification.violations).toHaveLength(1);
    expect(calls[calls.length - 1]).toBe('adopt full refused');
  });

  it('takes the engine’s own fallback where its preferred configuration fails its proof and the fallback is proven', () => {
    const { engine, calls } = engineProving({ incremental: false, full: false });
    const fallback =
      (ok: boolean): RoutingEngine<Image>['fallback'] =>
      (faults) => {
        calls.push('fallback');
        return {
          computed: { faults, incremental: false, image: { routers: [{ name: ok ? 'proven' : 'not' }] }, changedRouters: [] },
          reason: 'routed minimally',
        };
      };
    const verify = engine.verify;
    engine.verify = (computed) => (computed.image.routers[0]?.name === 'proven' ? { ...verify(computed), ok: true, violations: [] } : verify(computed));
    engine.fallback = fallback(true);
    const taken = driveEngine(engine, FaultSet.NONE);
    expect(taken).toMatchObject({ pushable: true, fallback: 'routed minimally (the preferred configuration was not proven: a loop)' });
    expect(taken.computed.image.routers).toEqual([{ name: 'proven' }]);
    // A fallback that is not proven either changes nothing: the preferred one is refused.
    engine.fallback = fallback(false);
    expect(driveEngine(engine, FaultSet.NONE)).toMatchObject({ pushable: false, fallback: null });
    expect(calls.at(-1)).toBe('adopt full refused');
  });
});
