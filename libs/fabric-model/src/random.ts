/** Seeded PRNG (mulberry32): every generator and every shuffle in weft takes its randomness here. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fisher–Yates shuffle of `items[from, to)` in place. */
export function shuffleRange<T>(items: T[], from: number, to: number, random: () => number): void {
  for (let i = to - 1; i > from; i--) {
    const j = from + Math.floor(random() * (i - from + 1));
    const t = items[i];
    items[i] = items[j];
    items[j] = t;
  }
}
