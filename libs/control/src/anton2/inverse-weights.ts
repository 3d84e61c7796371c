/**
 * Anton 2's inverse weights for one arbiter (paper 004 §3.3; spec §2.3.5): from the load γ[i][n]
 * that traffic pattern n puts on the arbiter's input i towards its output (the channel-load
 * analysis, extended inside the chip), m[i][n] = nint(β/γ[i][n]), β one factor for the whole
 * arbiter — the accumulators' common scale does not change the grants (§3.3) — as large as the
 * M-bit weights allow, for the finest resolution: β = (2^M − 1)·γmin, so that the least-loaded
 * input gets the largest weight and none rounds past it. An input a pattern does not load
 * (γ = 0: the paper is silent) gets 2^M − 1, the least favoured.
 */
export interface ArbiterWeights {
  readonly beta: number;
  /** m[i][n], each 0 … 2^M − 1. */
  readonly weights: readonly (readonly number[])[];
}

export function inverseWeights(loads: readonly (readonly number[])[], bits = 5): ArbiterWeights {
  const top = (1 << bits) - 1;
  let least = Infinity;
  for (const row of loads)
    for (const gamma of row) {
      if (!(Number.isFinite(gamma) && gamma >= 0)) throw new RangeError(`a load is a finite number of at least 0, got ${gamma}`);
      if (gamma > 0 && gamma < least) least = gamma;
    }
  const beta = Number.isFinite(least) ? top * least : 0;
  const weights = loads.map((row) => row.map((gamma) => (gamma > 0 ? Math.min(top, Math.max(1, Math.round(beta / gamma))) : top)));
  return { beta, weights };
}
