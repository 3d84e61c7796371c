/**
 * Anton 2's inverse-weighted arbiter exactly as paper 004 §3.3 (Fig. 6) specifies it, with plain
 * round robin selectable (§4.2's "None"): one arbiter of K inputs, M-bit inverse weights per input
 * and traffic pattern (N patterns, selected by the granted packet's pattern field), accumulators
 * of M+1 bits kept relative to a sliding window of 2^(M+1) values, a priority bit (high while an
 * accumulator is in the window's lower half), round robin among equals (§3.4: the granted input
 * becomes the last of its level), and underflow to zero.
 *
 * On a grant to input g for a packet of pattern n: g's accumulator becomes its value modulo 2^M
 * plus m[g][n]; if g had low priority — so no requesting input had high priority — the window
 * shifts: every other input's accumulator drops by 2^M, and one that had high priority (it was not
 * requesting, or it would have won) underflows to zero. Accumulators stay below 2^(M+1), which
 * `check` asserts. Typed arrays, one object per arbiter: the chip model holds thousands.
 */
export class InverseWeightedArbiter {
  /** Accumulators, M+1 bits each. */
  readonly accum: Int32Array;
  /** Inverse weights, input i and pattern n at i * patterns + n, each below 2^M. */
  readonly weights: Int32Array;
  /** Where round robin starts looking: the input after the last granted. */
  private next = 0;
  private readonly half: number;
  /** Plain round robin instead (every input equal, no accumulators). */
  roundRobin = false;

  constructor(
    readonly inputs: number,
    readonly weightBits = 5,
    readonly patterns = 2,
  ) {
    if (!(Number.isInteger(inputs) && inputs >= 1)) throw new RangeError(`an arbiter has at least one input, got ${inputs}`);
    if (!(Number.isInteger(weightBits) && weightBits >= 1 && weightBits <= 16)) throw new RangeError(`inverse weights are 1 to 16 bits, got ${weightBits}`);
    this.half = 1 << weightBits;
    this.accum = new Int32Array(inputs);
    this.weights = new Int32Array(inputs * patterns);
  }

  /** Loads the weights m[i][n] (each 0 … 2^M − 1) and resets the accumulators, as a push does (spec §2.3.5). */
  setWeights(m: readonly (readonly number[])[]): void {
    if (m.length !== this.inputs) throw new RangeError(`weights for ${this.inputs} inputs, got ${m.length}`);
    m.forEach((row, i) => {
      if (row.length !== this.patterns) throw new RangeError(`input ${i}: weights for ${this.patterns} patterns, got ${row.length}`);
      row.forEach((w, n) => {
        if (!(Number.isInteger(w) && w >= 0 && w < this.half))
          throw new RangeError(`input ${i}, pattern ${n}: a weight is 0 to ${this.half - 1} (M = ${this.weightBits} bits), got ${w}`);
        this.weights[i * this.patterns + n] = w;
      });
    });
    this.accum.fill(0);
  }

  /**
   * Grants one of the requesting inputs (`requesting[i]` non-zero), the granted packet being of
   * pattern `patternOf(g)`; returns the input, or −1 when none requests.
   */
  grant(requesting: Uint8Array, patternOf: (input: number) => number): number {
    const k = this.inputs;
    const half = this.half;
    let g = -1;
    let gHigh = false;
    for (let j = 0; j < k; j++) {
      const i = (this.next + j) % k;
      if (!requesting[i]) continue;
      const high = this.roundRobin || this.accum[i] < half;
      if (g < 0 || (high && !gHigh)) {
        g = i;
        gHigh = high;
        if (high) break; // the first high-priority requester in round-robin order wins
      }
    }
    if (g < 0) return -1;
    this.next = (g + 1) % k;
    if (this.roundRobin) return g;
    const accum = this.accum;
    if (!gHigh)
      for (let i = 0; i < k; i++) {
        if (i === g) continue;
        accum[i] = accum[i] < half ? 0 : accum[i] - half;
      }
    accum[g] = (accum[g] & (half - 1)) + this.weights[g * this.patterns + patternOf(g)];
    return g;
  }

  /** The invariant the hardware relies on: every accumulator within M+1 bits. */
  check(): void {
    for (let i = 0; i < this.inputs; i++)
      if (this.accum[i] < 0 || this.accum[i] >= 2 * this.half) throw new Error(`accumulator ${i} is ${this.accum[i]}, outside 0 … ${2 * this.half - 1}`);
  }
}
