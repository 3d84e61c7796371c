/**
 * Traffic runs on an emulated BlueGene/L through the emulator's host — the operator's traffic runs
 * and a drill's background load — by the torus runner (traffic/torus-traffic-run.ts): each node's
 * software sends packets by its route-override table, as the control plane configured it (paper
 * 002 §3).
 *
 * Load: a fraction of one link's bandwidth per node (one byte per network cycle, §2) — the rate at
 * which uniform traffic saturates a symmetric torus, each node sending its share of its six links
 * over paths of about six hops. A host's BG/L run is one thread (the block threads of
 * bgl-threads.ts are the runner for the large studies).
 */
import { BGL_CHUNK_BYTES, BGL_VCS } from '@weft/fabric-model';
import { TorusRunnerSim, TorusTrafficRun } from '../traffic/torus-traffic-run';
import type { TrafficFabricShape, TrafficRequest } from '../traffic/traffic-request';
import type { BglTorusSim } from './bgl-torus-sim';

/** BG/L as the torus runner drives it: sizes in bytes, one injection port, six links a node. */
export function bglRunnerSim(sim: BglTorusSim): TorusRunnerSim {
  return {
    nodes: sim.nodes,
    chipNames: sim.fabric.chipNames,
    nsPerCycle: sim.nsPerCycle,
    capacity: 1,
    linkCapacity: 1,
    linksPerNode: 6,
    vcs: BGL_VCS,
    now: () => sim.cycle,
    quiet: () => sim.quiet,
    run: (cycles, beforeCycle) => sim.run(cycles, beforeCycle),
    skipTo: (cycle) => sim.skipTo(cycle),
    dead: (node) => sim.dead[node] === 1,
    send: (node, _port, destination, bytes, tag) => void sim.send(node, destination, bytes / BGL_CHUNK_BYTES, { tag }),
    packetTag: (p) => sim.packetTag(p),
    packetSource: (p) => sim.packetSource(p),
    packetDestination: (p) => sim.packetFinalDestination(p),
    packetHops: (p) => sim.packetHops(p),
    packetUnits: (p) => sim.packetChunks(p) * BGL_CHUNK_BYTES,
    packetLatency: (p, cycle) => cycle - sim.packetSentAt(p),
    packetsAlive: (tag) => sim.packetsAlive(tag),
    retransmissions: () => sim.retransmissions,
    linkUnits: () => sim.linkBytes(),
    linkVcUnits: () => sim.linkVcBytes(),
    listen: (delivered, discarded) => {
      sim.onDeliver = delivered;
      sim.onDiscard = discarded;
    },
  };
}

export function startBglTraffic(sim: BglTorusSim, request: TrafficRequest, shape: TrafficFabricShape): TorusTrafficRun {
  return new TorusTrafficRun(bglRunnerSim(sim), request, shape);
}
