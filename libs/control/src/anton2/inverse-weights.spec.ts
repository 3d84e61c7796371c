import { inverseWeights } from './inverse-weights';

describe("Anton 2's inverse weights (paper 004 §3.3: m = nint(β/γ), β as large as M bits allow)", () => {
  it('Fig. 5: loads 1 and 0.5 give the lighter input twice the weight, the largest that fits 5 bits', () => {
    const { beta, weights } = inverseWeights([[1], [0.5]], 5);
    expect(beta).toBeCloseTo(15.5);
    expect(weights).toEqual([[16], [31]]);
  });

  it('per pattern, an unloaded input least favoured; every weight within M bits', () => {
    const { weights } = inverseWeights(
      [
        [0.25, 0],
        [1, 2],
        [0.5, 4],
      ],
      4,
    );
    expect(weights).toEqual([
      [15, 15],
      [4, 2],
      [8, 1],
    ]);
    expect(inverseWeights([[0], [0]]).weights).toEqual([[31], [31]]);
    expect(() => inverseWeights([[-1]])).toThrow('a load is a finite number of at least 0, got -1');
  });
});
