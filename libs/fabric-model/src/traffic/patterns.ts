/**
 * Traffic patterns: for each packet a source injects, its destination. Generic over the fabric
 * families (issue 5): a pattern sees only the endpoints (numbered 0..n-1) and, where the pattern
 * needs it, the torus dimensions or the endpoints per router. Definitions follow the usual
 * interconnect literature (Dally & Towles; BookSim2) and the papers: hot region (002 §4), the
 * flattened butterfly's adversarial pattern (003 §3.2).
 */

// Read once: a global looked up per packet is slow under the test runner's proxied global object (random.ts).
const { floor, imul, log2, ceil, round } = Math;

export interface PatternContext {
  /** Endpoints in the fabric, numbered 0..endpoints-1. */
  readonly endpoints: number;
  /** Torus families: radix per dimension (their product is `endpoints`). */
  readonly torus?: readonly number[];
  /** Router-grouped families (flattened butterfly, BlackWidow R1s): endpoints per router. */
  readonly endpointsPerRouter?: number;
}

export type PatternSpec =
  | { readonly kind: 'uniform-random' }
  | { readonly kind: 'random-permutation' }
  | { readonly kind: 'bit-complement' }
  | { readonly kind: 'transpose' }
  | { readonly kind: 'tornado' }
  | { readonly kind: 'reverse-tornado' }
  | { readonly kind: 'neighbour'; readonly hops: number }
  | { readonly kind: 'hot-region'; readonly fraction: number; readonly first: number; readonly count: number }
  | { readonly kind: 'all-to-all' }
  | { readonly kind: 'adversarial' }
  | { readonly kind: 'matrix'; readonly weights: readonly (readonly number[])[] }
  /** BlackWidow request/response pairs: uniform random requests, each answered (paper 000 §5.1). */
  | { readonly kind: 'request-response'; readonly responsePhits?: SizeSpec };

export const PATTERN_KINDS = [
  'uniform-random',
  'random-permutation',
  'bit-complement',
  'transpose',
  'tornado',
  'reverse-tornado',
  'neighbour',
  'hot-region',
  'all-to-all',
  'adversarial',
  'matrix',
  'request-response',
] as const;

export interface TrafficPattern {
  readonly name: string;
  /** The destination of `source`'s next packet, or -1 when it sends nothing (e.g. a permutation's fixed point). */
  destination(source: number, random: () => number): number;
}

/** A pattern that cannot be made for this fabric, with the reason. */
export class PatternError extends Error {}

const isPowerOfTwo = (n: number) => n > 0 && (n & (n - 1)) === 0;

/** Coordinates of `node` in a torus (dimension 0 varies fastest), and back. */
function coordinates(node: number, dims: readonly number[]): number[] {
  const out: number[] = [];
  for (const k of dims) {
    out.push(node % k);
    node = floor(node / k);
  }
  return out;
}

function nodeOf(coords: readonly number[], dims: readonly number[]): number {
  let node = 0;
  for (let d = dims.length - 1; d >= 0; d--) node = node * dims[d] + coords[d];
  return node;
}

/** Uniform over every endpoint except `source`. */
function uniformOther(source: number, n: number, random: () => number): number {
  const d = floor(random() * (n - 1));
  return d >= source ? d + 1 : d;
}

export function makePattern(spec: PatternSpec, context: PatternContext, seed = 1): TrafficPattern {
  const n = context.endpoints;
  if (!Number.isInteger(n) || n < 2) throw new PatternError(`a traffic pattern needs at least 2 endpoints, got ${n}`);
  const dims = context.torus;
  if (dims && dims.reduce((a, b) => a * b, 1) !== n) throw new PatternError(`torus ${dims.join('x')} does not have ${n} endpoints`);
  switch (spec.kind) {
    case 'uniform-random':
      return { name: 'uniform random', destination: (s, random) => uniformOther(s, n, random) };
    case 'request-response':
      // The requests; their responses are made by the run as each request arrives.
      return { name: 'request/response pairs', destination: (s, random) => uniformOther(s, n, random) };
    case 'random-permutation': {
      // A seeded bijection (Fisher–Yates); a fixed point sends nothing.
      const pi = Array.from({ length: n }, (_, i) => i);
      let x = seed >>> 0 || 1;
      const next = () => ((x = (imul(x, 1664525) + 1013904223) >>> 0), x / 2 ** 32);
      for (let i = n - 1; i > 0; i--) {
        const j = floor(next() * (i + 1));
        [pi[i], pi[j]] = [pi[j], pi[i]];
      }
      return { name: 'random permutation', destination: (s) => (pi[s] === s ? -1 : pi[s]) };
    }
    case 'bit-complement': {
      if (!isPowerOfTwo(n)) throw new PatternError(`bit complement needs a power-of-two number of endpoints, got ${n}`);
      return { name: 'bit complement', destination: (s) => ~s & (n - 1) };
    }
    case 'transpose': {
      if (dims && dims.length === 2) {
        if (dims[0] !== dims[1]) throw new PatternError(`transpose needs a square torus, got ${dims.join('x')}`);
        return { name: 'transpose', destination: (s) => fixedPoint(s, nodeOf([...coordinates(s, dims)].reverse(), dims)) };
      }
      const bits = log2(n);
      if (!isPowerOfTwo(n) || bits % 2 !== 0) throw new PatternError(`transpose needs 4^k endpoints (an even number of address bits), got ${n}`);
      const half = bits / 2;
      const low = (1 << half) - 1;
      return { name: 'transpose', destination: (s) => fixedPoint(s, ((s & low) << half) | (s >> half)) };
    }
    case 'tornado':
    case 'reverse-tornado': {
      // Half way round every ring, less one: the farthest a minimal route goes in one direction.
      const sign = spec.kind === 'tornado' ? 1 : -1;
      const rings = dims ?? [n];
      return {
        name: spec.kind === 'tornado' ? 'tornado' : 'reverse tornado',
        destination: (s) =>
          fixedPoint(
            s,
            nodeOf(
              coordinates(s, rings).map((x, d) => (((x + sign * (ceil(rings[d] / 2) - 1)) % rings[d]) + rings[d]) % rings[d]),
              rings,
            ),
          ),
      };
    }
    case 'neighbour': {
      if (!dims) throw new PatternError('the n-hop neighbour pattern needs a torus fabric (BlueGene/L, Anton 2)');
      if (!Number.isInteger(spec.hops) || spec.hops < 1 || spec.hops >= dims[0])
        throw new PatternError(`neighbour hops must be 1..${dims[0] - 1}, got ${spec.hops}`);
      return {
        name: `${spec.hops}-hop neighbour`,
        destination: (s) => {
          const c = coordinates(s, dims);
          c[0] = (c[0] + spec.hops) % dims[0];
          return nodeOf(c, dims);
        },
      };
    }
    case 'hot-region': {
      const { fraction, first, count } = spec;
      if (!(fraction >= 0 && fraction <= 1)) throw new PatternError(`hot-region fraction must be 0..1, got ${fraction}`);
      if (!Number.isInteger(first) || !Number.isInteger(count) || first < 0 || count < 2 || first + count > n) {
        throw new PatternError(`the hot region must be at least 2 endpoints within 0..${n - 1}, got ${first}..${first + count - 1}`);
      }
      return {
        name: `hot region (${round(fraction * 100)}% to ${first}–${first + count - 1})`,
        destination: (s, random) => {
          if (random() < fraction) {
            // Uniform over the region, never the source itself.
            const inside = s >= first && s < first + count;
            const d = first + floor(random() * (inside ? count - 1 : count));
            return inside && d >= s ? d + 1 : d;
          }
          return uniformOther(s, n, random);
        },
      };
    }
    case 'all-to-all': {
      // Each source goes round every other endpoint in turn, starting with its neighbour.
      const sent = new Int32Array(n);
      return { name: 'all-to-all', destination: (s) => (s + 1 + (sent[s]++ % (n - 1))) % n };
    }
    case 'adversarial': {
      const c = context.endpointsPerRouter;
      if (!c || !Number.isInteger(c) || c < 1 || n % c !== 0)
        throw new PatternError('the adversarial pattern needs the endpoints per router (a divisor of the endpoint count)');
      const routers = n / c;
      if (routers < 2) throw new PatternError('the adversarial pattern needs at least 2 routers');
      return {
        name: 'adversarial (router i to router i+1)',
        destination: (s, random) => ((floor(s / c) + 1) % routers) * c + floor(random() * c),
      };
    }
    case 'matrix': {
      const w = spec.weights;
      if (w.length !== n) throw new PatternError(`the traffic matrix has ${w.length} rows; the fabric has ${n} endpoints`);
      const cumulative: Float64Array[] = [];
      w.forEach((row, s) => {
        if (row.length !== n) throw new PatternError(`row ${s} of the traffic matrix has ${row.length} entries, not ${n}`);
        const sums = new Float64Array(n);
        let total = 0;
        row.forEach((x, d) => {
          if (!(Number.isFinite(x) && x >= 0)) throw new PatternError(`traffic matrix [${s}][${d}] must be a non-negative number, got ${x}`);
          if (d === s && x > 0) throw new PatternError(`traffic matrix [${s}][${s}] must be 0: an endpoint does not send to itself`);
          total += x;
          sums[d] = total;
        });
        cumulative.push(sums);
      });
      return {
        name: 'traffic matrix',
        destination: (s, random) => {
          const sums = cumulative[s];
          const total = sums[n - 1];
          if (total === 0) return -1;
          const r = random() * total;
          let lo = 0;
          let hi = n - 1;
          while (lo < hi) {
            const mid = (lo + hi) >> 1;
            if (sums[mid] > r) hi = mid;
            else lo = mid + 1;
          }
          return lo;
        },
      };
    }
  }
}

const fixedPoint = (s: number, d: number) => (d === s ? -1 : d);

/** Packet sizes in phits: one size, or a distribution of sizes with weights. */
export type SizeSpec = number | readonly { readonly phits: number; readonly weight: number }[];

export function sizeSampler(spec: SizeSpec, limits: { min: number; max: number; multipleOf?: number }): (random: () => number) => number {
  const check = (phits: number) => {
    if (!Number.isInteger(phits) || phits < limits.min || phits > limits.max)
      throw new PatternError(`packet size must be ${limits.min}..${limits.max} phits, got ${phits}`);
    if (limits.multipleOf && phits % limits.multipleOf !== 0)
      throw new PatternError(`packet size must be a multiple of ${limits.multipleOf} phits (the chip moves packets in units of that many), got ${phits}`);
  };
  if (typeof spec === 'number') {
    check(spec);
    return () => spec;
  }
  if (spec.length === 0) throw new PatternError('a packet-size distribution needs at least one size');
  let total = 0;
  for (const { phits, weight } of spec) {
    check(phits);
    if (!(Number.isFinite(weight) && weight > 0)) throw new PatternError(`packet-size weight must be positive, got ${weight}`);
    total += weight;
  }
  return (random) => {
    let r = random() * total;
    for (const { phits, weight } of spec) if ((r -= weight) < 0) return phits;
    return spec[spec.length - 1].phits;
  };
}
