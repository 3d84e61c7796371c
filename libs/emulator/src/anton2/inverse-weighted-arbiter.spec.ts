import { InverseWeightedArbiter } from './inverse-weighted-arbiter';

/** Grants of an arbiter whose inputs all request all the time, each with its own pattern. */
function shares(arbiter: InverseWeightedArbiter, grants: number, pattern: (i: number) => number = () => 0): number[] {
  const requesting = new Uint8Array(arbiter.inputs).fill(1);
  const counts = new Array<number>(arbiter.inputs).fill(0);
  for (let k = 0; k < grants; k++) {
    counts[arbiter.grant(requesting, pattern)]++;
    arbiter.check();
  }
  return counts;
}

describe("Anton 2's inverse-weighted arbiter (paper 004 §3.3, Fig. 6)", () => {
  it("grants in proportion to the inputs' loads: Fig. 5's arbiter A, loads 1 and 0.5, weights 15 and 30, input 0 twice as often", () => {
    const arbiter = new InverseWeightedArbiter(2, 5, 2);
    arbiter.setWeights([
      [15, 15],
      [30, 30],
    ]);
    const [a, b] = shares(arbiter, 3000);
    expect(a / b).toBeCloseTo(2, 2);
  });

  it('selects each packet’s weights by its pattern field, keeps every accumulator within M+1 bits, and underflows idle inputs to zero', () => {
    const arbiter = new InverseWeightedArbiter(3, 5, 2);
    arbiter.setWeights([
      [3, 31],
      [9, 1],
      [31, 31],
    ]);
    // Inputs 0 and 1 send pattern 1, input 2 pattern 0: input 1 (weight 1) far ahead, 0 and 2 at the cap alike.
    const counts = shares(arbiter, 3300, (i) => (i === 2 ? 0 : 1));
    expect(counts[1]).toBeGreaterThan(20 * counts[0]);
    expect(Math.abs(counts[0] - counts[2])).toBeLessThanOrEqual(counts[0] * 0.05 + 1);
    // Input 2 stops requesting: once the others' window shifts past it, it is back at zero.
    const requesting = Uint8Array.from([1, 1, 0]);
    for (let k = 0; k < 200; k++) arbiter.grant(requesting, () => 1);
    expect(arbiter.accum[2]).toBe(0);
  });

  it('equal weights and plain round robin both take turns exactly; nothing requesting, nothing granted', () => {
    const equal = new InverseWeightedArbiter(4, 5, 1);
    equal.setWeights([[7], [7], [7], [7]]);
    expect(shares(equal, 400)).toEqual([100, 100, 100, 100]);
    const plain = new InverseWeightedArbiter(3, 5, 1);
    plain.roundRobin = true;
    const requesting = Uint8Array.from([1, 0, 1]);
    expect([0, 1, 2, 3].map(() => plain.grant(requesting, () => 0))).toEqual([0, 2, 0, 2]);
    expect(plain.grant(new Uint8Array(3), () => 0)).toBe(-1);
    expect(() => equal.setWeights([[32], [1], [1], [1]])).toThrow('input 0, pattern 0: a weight is 0 to 31 (M = 5 bits), got 32');
  });
});
