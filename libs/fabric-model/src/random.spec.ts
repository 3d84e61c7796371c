import { keyedDraw } from './random';

describe('keyedDraw', () => {
  it('draws the same value for the same event whatever was drawn before, and spreads neighbouring ports and cycles evenly over [0, 1)', () => {
    expect(keyedDraw(7, 1, 300, 123_456)).toBe(keyedDraw(7, 1, 300, 123_456));
    // Cycles beyond 2^32 are events of their own, not the low word's.
    expect(keyedDraw(7, 1, 300, 2 ** 32 + 5)).not.toBe(keyedDraw(7, 1, 300, 5));
    const seeds = [keyedDraw(1, 1, 0, 0), keyedDraw(2, 1, 0, 0), keyedDraw(1, 2, 0, 0), keyedDraw(1, 1, 1, 0), keyedDraw(1, 1, 0, 1)];
    expect(new Set(seeds).size).toBe(seeds.length);
    // 64 ports × 4096 cycles into 16 bins: a chi-square with 15 degrees of freedom, far below
    // what a skewed draw would give (the 0.999 quantile is 37.7).
    const bins = new Array(16).fill(0);
    let n = 0;
    let outside = 0;
    for (let port = 0; port < 64; port++)
      for (let cycle = 0; cycle < 4096; cycle++) {
        const x = keyedDraw(3, 1, port, cycle);
        if (!(x >= 0 && x < 1)) outside++;
        else bins[Math.floor(x * 16)]++;
        n++;
      }
    expect(outside).toBe(0);
    const expected = n / 16;
    const chiSquare = bins.reduce((sum, b) => sum + (b - expected) ** 2 / expected, 0);
    expect(chiSquare).toBeLessThan(37.7);
  });
});
