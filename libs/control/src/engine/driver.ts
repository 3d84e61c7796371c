/**
 * The routing-engine driver (issue 35, capability 3): the policy around any engine. Every computed
 * configuration is proven before it may be pushed; an incremental computation whose proof fails is
 * computed again in full and proven again (the fall-back); one that still fails is replaced by the
 * engine's own fallback where it has one and that is proven (issue 54: a dead router left a
 * flattened butterfly on routes through it, its UGAL configuration refused); what is still not
 * proven is adopted as refused — stored, reported, never pushed.
 */
import type { FaultSet } from '../faults/fault-set';
import type { VerificationReport } from './verification';
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
  /** The preferred configuration failed its proof and the engine's fallback was taken: what it gave up. */
  readonly fallback: string | null;
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
  let fallback: string | null = null;
  if (!verification.ok && engine.fallback) {
    const other = engine.fallback(faults);
    const proof = other && prove(other.computed);
    if (other && proof?.ok) {
      fallback = `${other.reason} (the preferred configuration was not proven: ${verification.violations[0]?.message ?? 'no reason given'})`;
      computed = other.computed;
      verification = proof;
    }
  }
  engine.adopt(computed, verification);
  return { engine: engine.name, computed, verification, pushable: verification.ok, fellBack, fallback, verifyMs };
}

/**
 * The work a configuration adopted left for later (RoutingEngine.optimise), proven: null when
 * there is none. Adopted only when proven — a refused optimisation leaves the configuration in
 * force as it was, and is recorded as refused.
 */
export function driveOptimisation<I extends ChipImages, C extends EngineComputation<I>>(engine: RoutingEngine<I, C>): DriverOutcome<I> | null {
  const computed = engine.optimise?.() ?? null;
  if (!computed) return null;
  const began = performance.now();
  const verification = engine.verify(computed);
  const verifyMs = performance.now() - began;
  if (verification.ok) engine.adopt(computed, verification);
  return { engine: engine.name, computed, verification, pushable: verification.ok, fellBack: false, fallback: null, verifyMs };
}
