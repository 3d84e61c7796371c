/**
 * Workloads for the BlueGene/L emulator that any thread can run for its own blocks and get the same
 * packets as one thread running them all: every choice is a keyed draw of the seed, the node and the
 * cycle (keyedDraw), never a stream whose position depends on who drew before; and a digest of what
 * was delivered (parallel/delivery-digest.ts), so that runs on one thread and on several compare.
 */
import { keyedDraw } from '@weft/fabric-model';
import { DeliveryDigest } from '../parallel/delivery-digest';
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

/** A digest of what `sim` delivers from now on (parallel/delivery-digest.ts), whatever order it is seen in. */
export function digestBglDeliveries(sim: BglTorusSim): DeliveryDigest {
  const digest = new DeliveryDigest();
  const chain = sim.onDeliver;
  sim.onDeliver = (p, cycle) => {
    chain(p, cycle);
    digest.record(sim.packetSource(p), sim.packetSerial(p), sim.packetDestination(p), cycle, cycle - sim.packetSentAt(p));
  };
  return digest;
}
