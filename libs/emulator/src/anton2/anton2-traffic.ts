/**
 * Traffic runs on an emulated Anton 2 machine through the emulator's host — the operator's traffic
 * runs and a drill's background load — by the torus runner (traffic/torus-traffic-run.ts). The
 * pattern picks destination ASICs; a run's injection ports (its `slices`) are endpoint adapters,
 * 0 to 22 (§2.2), and a packet goes to the endpoint adapter of the same number at its destination
 * (paper 004 §4.1's batches: "one core per router"). Each packet's order and slice are drawn by the
 * source under its route-policy register, as the control plane configured it (§2.3).
 *
 * Load: a fraction of two torus channels' bandwidth per ASIC (2 × 89.6 Gb/s, 0.622 flits a cycle,
 * §2.2), shared by the run's endpoint adapters — the rate at which uniform traffic saturates a
 * symmetric torus, each ASIC sending its share of its 12 channels over paths of about six hops (as
 * BG/L's load is one link's over its six). Utilisation is of torus channels, per VC (class × 4 + VC).
 *
 * Multicast: where the request names groups (`multicast`), that fraction of each group source's
 * packets go to one of its groups instead, alternating between the group's two trees packet by
 * packet (§2.3) — the software of the source knows its groups; the tables it reaches are the
 * control plane's.
 */
import * as model from '@weft/fabric-model';
import { keyedDraw } from '@weft/fabric-model';
import { TorusRunnerSim, TorusTrafficRun } from '../traffic/torus-traffic-run';
import type { TrafficFabricShape, TrafficRequest } from '../traffic/traffic-request';
import type { Anton2Sim } from './anton2-sim';

const CHANNELS = model.ANTON2_CHANNEL_ADAPTERS;
const VCS = model.ANTON2_VCS_PER_CLASS * model.ANTON2_TRAFFIC_CLASSES;
/** Flits a torus channel carries a cycle (§2.2: 24-byte flits at 89.6 Gb/s, 1.5 GHz). */
const TORUS_FLITS_PER_CYCLE = (model.ANTON2_CHANNEL_EFFECTIVE_GBPS * model.ANTON2_NS_PER_CYCLE) / (model.ANTON2_FLIT_BYTES * 8);
const A2_TORUS_LINK = model.A2_IN_CA_FROM_ROUTER;
const DRAW_MULTICAST = 11;

/** A multicast group a run's sources send to: its id (as the control plane's tables key it) and its source ASIC. */
export interface Anton2RunGroup {
  readonly group: number;
  readonly source: number;
}

export interface Anton2RunMulticast {
  /** Of a group source's packets, the share sent to its groups. */
  readonly fraction: number;
  readonly groups: readonly Anton2RunGroup[];
}

/** Anton 2 as the torus runner drives it. */
export function anton2RunnerSim(sim: Anton2Sim, multicast?: Anton2RunMulticast): TorusRunnerSim {
  const groupsOf = new Map<number, number[]>();
  for (const g of multicast?.groups ?? []) groupsOf.set(g.source, [...(groupsOf.get(g.source) ?? []), g.group]);
  const turns = new Map<number, number>();
  // Each node's sends so far: the key of its multicast draws, so that they do not depend on the order nodes send in.
  const sends = new Float64Array(sim.nodes);
  const overhead = sim.settings.endpointOverheadNs / sim.nsPerCycle;
  return {
    nodes: sim.nodes,
    chipNames: sim.fabric.chipNames,
    nsPerCycle: sim.nsPerCycle,
    capacity: 2 * TORUS_FLITS_PER_CYCLE,
    linkCapacity: TORUS_FLITS_PER_CYCLE,
    linksPerNode: CHANNELS,
    vcs: VCS,
    now: () => sim.now,
    quiet: () => sim.quiet,
    skipsIdle: true,
    run: (cycles, beforeCycle, nextArrival) => sim.run(cycles, beforeCycle, nextArrival),
    blocks:
      sim.blockCount > 1
        ? {
            count: sim.blockCount,
            blockOf: (node) => sim.blockOf(node),
            run: (cycles, beforeCycle, nextArrival) => sim.runBlocks(cycles, beforeCycle, nextArrival),
          }
        : undefined,
    skipTo: (cycle) => sim.skipTo(cycle),
    dead: (node) => sim.dead[node] === 1,
    send: (node, endpoint, destination, flits, tag) => {
      const groups = groupsOf.get(node);
      if (groups && keyedDraw(sim.seed, DRAW_MULTICAST, node, sends[node]++) < multicast!.fraction) {
        const turn = turns.get(node) ?? 0;
        turns.set(node, turn + 1);
        sim.sendMulticast(node, endpoint, groups[turn % groups.length], ((turn / groups.length) | 0) & 1, flits, { tag });
        return;
      }
      sim.send(node, endpoint, destination, endpoint, flits, { tag });
    },
    packetTag: (p) => sim.packetTag(p),
    packetSource: (p) => sim.packetSource(p),
    packetDestination: (p) => sim.packetDestination(p),
    packetHops: (p) => sim.packetHops(p),
    packetUnits: (p) => sim.packetFlits(p),
    packetLatency: (p, cycle) => cycle - sim.packetSentAt(p) + overhead,
    packetsAlive: (tag) => sim.packetsAlive(tag),
    retransmissions: () => sim.retransmissions,
    linkUnits: () => {
      const out = new Float64Array(sim.nodes * CHANNELS);
      for (let n = 0; n < sim.nodes; n++) for (let c = 0; c < CHANNELS; c++) out[n * CHANNELS + c] = sim.linkFlits[n * model.A2_OUTPUTS + A2_TORUS_LINK + c];
      return out;
    },
    linkVcUnits: () => Float64Array.from(sim.torusVcFlits),
    listen: (delivered, discarded, copied) => {
      sim.onDeliver = delivered;
      sim.onDiscard = discarded;
      sim.onCopy = copied;
    },
  };
}

export function startAnton2Traffic(sim: Anton2Sim, request: TrafficRequest, shape: TrafficFabricShape, multicast?: Anton2RunMulticast): TorusTrafficRun {
  return new TorusTrafficRun(anton2RunnerSim(sim, multicast), request, shape);
}
