/**
 * Workloads for the BlueGene/L emulator that any thread can run for its own blocks and get the same
 * packets as one thread running them all: every choice is a keyed draw of the seed, the node and the
 * cycle (keyedDraw), never a stream whose position depends on who drew before. And a digest of what
 * was delivered that does not depend on the order deliveries are seen in, so that runs on one thread
 * and on several can be compared packet for packet.
 */
import { keyedDraw } from '@weft/fabric-model';
import type { BglTorusSim } from './bgl-torus-sim';

const DRAW_SEND = 101;
const DRAW_DESTINATION = 102;
const DRAW_SIZE = 103;

export interface UniformTraffic {
  readonly seed: number;
  /** Offered load as a fraction of a node's injection bandwidth (one byte per cycle per link direction used). */
  readonly load: number;
  /** Packet sizes in chunks, drawn uniformly. */
  readonly sizes: readonly number[];
  readonly routing: 'table' | 'dynamic' | 'static';
  /** Cycles after which no more packets are sent (the run then drains). */
  readonly sendUntil: number;
}

/** Sends block `block`'s packets for cycle `cycle`: each node a packet with probability load × (32 / mean size) / 256... per cycle. */
export function uniformTraffic(sim: BglTorusSim, traffic: UniformTraffic): (block: number, cycle: number) => void {
  const meanChunks = traffic.sizes.reduce((a, b) => a + b, 0) / traffic.sizes.length;
  // load 1 offers a node's share of one link's bytes: one packet of the mean size per mean size × 32 cycles.
  const chance = traffic.load / (meanChunks * 32);
  const blocks = Array.from({ length: sim.blocks }, (_, b) => sim.nodesOf(b));
  const n = sim.nodes;
  return (block, cycle) => {
    if (cycle >= traffic.sendUntil) return;
    for (const node of blocks[block]) {
      if (sim.dead[node] || keyedDraw(traffic.seed, DRAW_SEND, node, cycle) >= chance) continue;
      let destination = (keyedDraw(traffic.seed, DRAW_DESTINATION, node, cycle) * (n - 1)) | 0;
      if (destination >= node) destination++;
      if (sim.dead[destination]) continue;
      const size = traffic.sizes[(keyedDraw(traffic.seed, DRAW_SIZE, node, cycle) * traffic.sizes.length) | 0];
      sim.send(node, destination, size, { routing: traffic.routing });
    }
  };
}

/** What was delivered, whatever order it was seen in: count, latency, and a sum of a hash of each (source, serial, destination, cycle). */
export class DeliveryDigest {
  delivered = 0;
  latencyCycles = 0;
  hash = 0;

  constructor(sim: BglTorusSim) {
    const chain = sim.onDeliver;
    sim.onDeliver = (p, cycle) => {
      chain(p, cycle);
      this.delivered++;
      this.latencyCycles += cycle - sim.packetSentAt(p);
      const h = keyedDraw(sim.packetSource(p), sim.packetSerial(p), sim.packetDestination(p), cycle) * 4294967296;
      this.hash = (this.hash + h) % 4294967296;
    };
  }

  absorb(other: { delivered: number; latencyCycles: number; hash: number }): void {
    this.delivered += other.delivered;
    this.latencyCycles += other.latencyCycles;
    this.hash = (this.hash + other.hash) % 4294967296;
  }
}
