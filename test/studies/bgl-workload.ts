/**
 * The workload driver of paper 002 §3's simulator, for the BG/L studies: packets generated as a
 * Poisson stream over all nodes and placed in the injection FIFOs at once (the simulator's were
 * unbounded: `injectionFifoChunks` 0), to uniform destinations or §4's hot region.
 */
import { BglTorusSim } from '@weft/emulator';
import { makePattern, mulberry32 } from '@weft/fabric-model';

/** Mean torus hops between two distinct nodes of a torus of `shape`, dimension by dimension. */
export function meanTorusHops(shape: readonly number[]): number {
  let total = 0;
  for (const k of shape) {
    let sum = 0;
    for (let d = 0; d < k; d++) sum += Math.min(d, k - d);
    total += sum / k;
  }
  const n = shape.reduce((a, b) => a * b, 1);
  return (total * n) / (n - 1);
}

/** A destination for a packet from `source`: another node (a traffic pattern's, or the hot region's). */
export type DestinationRule = (source: number, random: () => number) => number;

/**
 * §4's hot region: a fraction of the packets go to a node drawn from the sub-mesh of nodes whose
 * coordinates are all below `side` (the region "starts at coordinates (0,0,0)"), the rest uniformly
 * over the machine.
 */
export function hotRegionDestination(sim: BglTorusSim, fraction: number, side: readonly number[]): DestinationRule {
  const hot: number[] = [];
  for (let node = 0; node < sim.nodes; node++) if ([0, 1, 2].every((d) => sim.coords[3 * node + d] < side[d])) hot.push(node);
  const uniform = makePattern({ kind: 'uniform-random' }, { endpoints: sim.nodes }).destination;
  return (source, random) => {
    // The region's only node sends its share uniformly too (it cannot send to itself).
    if (random() >= fraction || (hot.length === 1 && hot[0] === source)) return uniform(source, random);
    for (;;) {
      const d = hot[Math.floor(random() * hot.length)];
      if (d !== source) return d;
    }
  };
}

/**
 * A per-cycle generator for `sim.run`: Poisson arrivals at `perNode` packets a cycle a node, sources
 * uniform, each a dynamically routed packet of `chunks`, tagged with `tag()` at its generation.
 */
export function poissonDriver(
  sim: BglTorusSim,
  perNode: number,
  chunks: number,
  destination: DestinationRule,
  seed: number,
  tag: () => number = () => 0,
): () => void {
  const random = mulberry32(seed);
  const n = sim.nodes;
  const mean = perNode * n;
  const draw = () => {
    let k = 0;
    let p = Math.exp(-mean);
    let s = p;
    const u = random();
    while (u > s) {
      k++;
      p *= mean / k;
      s += p;
    }
    return k;
  };
  return () => {
    for (let k = draw(); k > 0; k--) {
      const source = Math.floor(random() * n);
      sim.send(source, destination(source, random), chunks, { routing: 'dynamic', tag: tag() });
    }
  };
}
