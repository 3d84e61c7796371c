/**
 * The k-ary n-flat's topology, as paper 003 §2.2 defines it (issue 38; spec §3.1): N = kⁿ terminals
 * on N/k routers of radix k′ = n(k − 1) + 1, connected in n′ = n − 1 dimensions, every router to
 * each other router whose coordinates differ in exactly one dimension (equation (1)). A terminal's
 * address is an n-digit radix-k number: digit 0 the terminal on its router, digits 1 … n′ the
 * router's coordinates (digit d ↔ dimension d).
 *
 * Sizing from a router's radix follows §5.1.2: the smallest n′ with ⌊radix/(n′+1)⌋^(n′+1) ≥ N, and
 * the effective radix k′ = (⌊radix/(n′+1)⌋ − 1)(n′ + 1) + 1 it leaves; ports beyond k′ are spare
 * (Fig. 14: redundant channels, or more routers in a dimension).
 */

export interface FlatShape {
  /** Terminals per router, and routers per dimension. */
  readonly k: number;
  /** Digits of a terminal's address: n′ = n − 1 router dimensions. */
  readonly n: number;
}

export interface FlatFigures {
  readonly terminals: number;
  readonly routers: number;
  /** Router dimensions, n′ = n − 1. */
  readonly dimensions: number;
  /** Ports a router uses: k terminals and k − 1 peers in each dimension, n(k − 1) + 1. */
  readonly radix: number;
  /** Inter-router channels, one a direction (as §5.3 counts them: 31 × 32 = 992 for N = 1K): N/k × n′(k − 1). */
  readonly channels: number;
  /** Cables between routers, each carrying a channel each way: half the channels. */
  readonly cables: number;
}

/** The figures of a k-ary n-flat; an error names a shape that is not one. */
export function flatFigures({ k, n }: FlatShape): FlatFigures {
  if (!(Number.isInteger(k) && k >= 2)) throw new RangeError(`a k-ary n-flat has k ≥ 2 terminals a router, got ${k}`);
  if (!(Number.isInteger(n) && n >= 2)) throw new RangeError(`a k-ary n-flat has n ≥ 2 (at least one router dimension), got ${n}`);
  const terminals = k ** n;
  if (!Number.isSafeInteger(terminals) || terminals > 2 ** 24)
    throw new RangeError(`a ${k}-ary ${n}-flat has ${terminals} terminals, more than weft builds (16M)`);
  const routers = terminals / k;
  const dimensions = n - 1;
  const channels = routers * dimensions * (k - 1);
  return { terminals, routers, dimensions, radix: n * (k - 1) + 1, channels, cables: channels / 2 };
}

/**
 * A flattened butterfly's router grid: `k` terminals a router and `sizes[d − 1]` routers along
 * dimension d. The k-ary n-flat has k along each of its n′ dimensions; Fig. 14(b)'s use of spare
 * ports adds routers along a dimension (a 4-ary 2-flat of radix-8 routers grows to 5 routers, 20
 * terminals), so the grid is mixed-radix in general. Router i's coordinate in dimension d is its
 * d-th digit in that mixed radix, dimension 1 least significant.
 */
export interface FlatGrid {
  readonly k: number;
  readonly sizes: readonly number[];
}

/** The grid of a k-ary n-flat: k routers along each of its n − 1 dimensions. */
export function flatGrid({ k, n }: FlatShape): FlatGrid {
  return { k, sizes: new Array<number>(n - 1).fill(k) };
}

export function flatRouterCount(grid: FlatGrid): number {
  return grid.sizes.reduce((a, b) => a * b, 1);
}

/** What router i's digit in dimension d counts in: the routers of the lower dimensions. */
function flatStep(grid: FlatGrid, d: number): number {
  let step = 1;
  for (let e = 1; e < d; e++) step *= grid.sizes[e - 1];
  return step;
}

/** Router `i`'s coordinate in dimension `d` (digit d of its terminals' addresses). */
export function flatCoordinate(grid: FlatGrid, i: number, d: number): number {
  return Math.floor(i / flatStep(grid, d)) % grid.sizes[d - 1];
}

/** The router at `coordinates` (dimension 1 first): its index in the grid, dimension 1 least significant. */
export function flatRouterIndex(grid: FlatGrid, coordinates: readonly number[]): number {
  let index = 0;
  for (let d = grid.sizes.length - 1; d >= 0; d--) index = index * grid.sizes[d] + coordinates[d];
  return index;
}

/**
 * Where coordinate m of dimension d (1-based) sits in a router's per-coordinate registers (port map,
 * redundant map, detours: dimension 1's coordinates first, then dimension 2's, …).
 */
export function flatMapSlot(grid: FlatGrid, d: number, m: number): number {
  let slot = m;
  for (let e = 1; e < d; e++) slot += grid.sizes[e - 1];
  return slot;
}

/** Router i's coordinates, dimension 1 first. */
export function flatCoordinates(grid: FlatGrid, i: number): number[] {
  return grid.sizes.map((_, d) => flatCoordinate(grid, i, d + 1));
}

/**
 * Equation (1): the router router `i` reaches in dimension `d` (1 … n′) as coordinate `m` of that
 * dimension — i itself where m is its own coordinate. On a k-ary n-flat, j = i + [m − (⌊i/k^(d−1)⌋
 * mod k)]·k^(d−1).
 */
export function flatPeer(grid: FlatGrid, i: number, d: number, m: number): number {
  const step = flatStep(grid, d);
  return i + (m - (Math.floor(i / step) % grid.sizes[d - 1])) * step;
}

/** Every router router `i` is connected to, dimension by dimension (size − 1 in each, in coordinate order). */
export function flatPeers(grid: FlatGrid, i: number): number[][] {
  return grid.sizes.map((size, d) => Array.from({ length: size }, (_, m) => flatPeer(grid, i, d + 1, m)).filter((j) => j !== i));
}

/** The dimensions in which two routers differ: a minimal route crosses each once, in any of j! orders (§2.2). */
export function flatDifferingDimensions(grid: FlatGrid, a: number, b: number): number[] {
  const out: number[] = [];
  for (let d = 1; d <= grid.sizes.length; d++) if (flatCoordinate(grid, a, d) !== flatCoordinate(grid, b, d)) out.push(d);
  return out;
}

export interface FlatSizing {
  /** Router dimensions, n′. */
  readonly dimensions: number;
  /** Terminals a router and routers a dimension, ⌊radix/(n′ + 1)⌋. */
  readonly k: number;
  /** Ports the topology uses, (k − 1)(n′ + 1) + 1. */
  readonly effectiveRadix: number;
  /** The router's ports beyond that (Fig. 14: redundant channels, or more routers in a dimension). */
  readonly sparePorts: number;
  /** Terminals it can reach, k^(n′ + 1) (≥ the N asked for). */
  readonly capacity: number;
}

/** §5.1.2: the flattened butterfly for N terminals on routers of `radix` ports; an error says when none exists. */
export function sizeFlattenedButterfly(radix: number, terminals: number): FlatSizing {
  if (!(Number.isInteger(radix) && radix >= 3)) throw new RangeError(`a router needs at least 3 ports for a flattened butterfly, got ${radix}`);
  if (!(Number.isInteger(terminals) && terminals >= 2)) throw new RangeError(`a network has at least 2 terminals, got ${terminals}`);
  for (let dimensions = 1; ; dimensions++) {
    const k = Math.floor(radix / (dimensions + 1));
    if (k < 2)
      throw new RangeError(
        `radix-${radix} routers cannot reach ${terminals} terminals: with ${dimensions} dimensions each router would have fewer than 2 terminals`,
      );
    const capacity = k ** (dimensions + 1);
    if (capacity >= terminals) {
      const effectiveRadix = (k - 1) * (dimensions + 1) + 1;
      return { dimensions, k, effectiveRadix, sparePorts: radix - effectiveRadix, capacity };
    }
  }
}
