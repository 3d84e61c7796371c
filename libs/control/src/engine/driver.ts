/**
 * The routing-engine driver (issue 35, capability 3): the policy around any engine. Every computed
 * configuration is proven before it may be pushed; an incremental computation whose proof fails is
 * computed again in full and proven again (the fall-back); what is still not proven is adopted as
 * refused — stored, reported, never pushed.
 */
import type { FaultSet } from '../faults/fault-set';
import type { VerificationReport } from '../blackwidow/verifier';
import type { ChipImages } from './image-delta';
import type { EngineComputation, RoutingEngine } from './routing-engine';

export interface DriverOutcome<I extends ChipImages> {
  readonly engine: string;
  readonly computed: EngineComputation<I>;
  readonly verification: VerificationReport;
  /** Proven: the driver lets it be pushed. */
  readonly pushable: boolean;
  /** An incremental computation failed its proof and the full one was taken instead. */
  readonly fellBack: boolean;
  /** Wall milliseconds spent proving (both proofs, where it fell back): the rest of the drive is computing. */
  readonly verifyMs: number;
}

export function driveEngine<I extends ChipImages, C extends EngineComputation<I>>(engine: RoutingEngine<I, C>, faults: FaultSet): DriverOutcome<I> {
  let verifyMs = 0;
  const prove = (c: C) => {
    const began = performance.now();
    const report = engine.verify(c);
    verifyMs += performance.now() - began;
    return report;
  };
  let computed = engine.compute(faults);
  let verification = prove(computed);
  let fellBack = false;
  if (!verification.ok && computed.incremental) {
    computed = engine.compute(faults, { full: true });
    verification = prove(computed);
    fellBack = true;
  }
  engine.adopt(computed, verification);
  return { engine: engine.name, computed, verification, pushable: verification.ok, fellBack, verifyMs };
}
