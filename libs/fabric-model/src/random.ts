// Read once: under the test runner the global object is a proxy, and a global looked up on every
// draw (Math) costs a hundred nanoseconds there.
const { imul, floor } = Math;

/** Seeded PRNG (mulberry32): every generator and every shuffle in weft takes its randomness here. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = imul(t ^ (t >>> 15), t | 1);
    t ^= t + imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Several mulberry32 streams (the same sequence as `mulberry32(seed)` each) whose states sit in one
 * array, so that the array can be shared memory: a fabric's independent parts each draw from a
 * stream of their own, on whichever thread runs the part, and the draws go on where they left off
 * whichever thread draws next (the emulator's parallel parts).
 */
export class RandomStreams {
  constructor(
    /** Each stream's state (a mulberry32 seed, advanced by every draw). */
    readonly states: Uint32Array,
  ) {}

  /** Streams seeded with `seeds`, their states in shared memory. */
  static seeded(seeds: readonly number[]): RandomStreams {
    const states = new Uint32Array(new SharedArrayBuffer(4 * seeds.length));
    seeds.forEach((seed, i) => (states[i] = seed >>> 0));
    return new RandomStreams(states);
  }

  get count(): number {
    return this.states.length;
  }

  /** Stream i's next draw in [0, 1). */
  draw(i: number): number {
    const a = (this.states[i] + 0x6d2b79f5) >>> 0;
    this.states[i] = a;
    let t = a;
    t = imul(t ^ (t >>> 15), t | 1);
    t ^= t + imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Stream i as a function. */
  stream(i: number): () => number {
    return () => this.draw(i);
  }
}

/** Fisher–Yates shuffle of `items[from, to)` in place. */
export function shuffleRange<T>(items: T[], from: number, to: number, random: () => number): void {
  for (let i = to - 1; i > from; i--) {
    const j = from + floor(random() * (i - from + 1));
    const t = items[i];
    items[i] = items[j];
    items[j] = t;
  }
}

/** murmur3's finalizer: a bijection of 32-bit words in which every input bit reaches every output bit. */
function mix32(x: number): number {
  x ^= x >>> 16;
  x = imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = imul(x, 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

/**
 * A draw in [0, 1) that is a function of the seed and of what it is drawn for — `kind` of event,
 * `where` (a port, a buffer) and `cycle` (a whole number, up to 2^53) — rather than of how many
 * draws came before it. Events drawn for in any order get the same values, so a simulation that
 * visits its parts in another order, or runs them apart, comes out the same. Each argument goes
 * through a round of mixing, so neighbouring ports and cycles get unrelated values.
 */
export function keyedDraw(seed: number, kind: number, where: number, cycle: number): number {
  let h = mix32((seed ^ 0x9e3779b9) >>> 0);
  h = mix32(h ^ kind);
  h = mix32(h ^ where);
  h = mix32(h ^ (cycle >>> 0));
  h = mix32(h ^ floor(cycle / 4294967296));
  return h / 4294967296;
}
