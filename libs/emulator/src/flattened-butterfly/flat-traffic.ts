/**
 * Traffic runs on an emulated flattened butterfly through the emulator's host — the operator's
 * traffic runs and a drill's background load — by the torus runner (traffic/torus-traffic-run.ts),
 * whose sources are here the terminals: the pattern picks a destination terminal, each terminal
 * sends single-flit packets (§3.2) into its router at up to a flit a cycle, its capacity (§3.2,
 * footnote 3: 2B/N = 1 on a flattened butterfly). Utilisation is of the routers' output channels,
 * per VC; discards are recorded at the router and port where they happened.
 */
import type { TorusRunnerSim } from '../traffic/torus-traffic-run';
import { TorusTrafficRun } from '../traffic/torus-traffic-run';
import type { TrafficFabricShape, TrafficRequest } from '../traffic/traffic-request';
import type { FlatSim } from './flat-sim';

export function flatRunnerSim(sim: FlatSim): TorusRunnerSim {
  const k = sim.grid.k;
  return {
    nodes: sim.terminals,
    chipNames: sim.routerNames,
    nsPerCycle: sim.nsPerCycle,
    capacity: 1,
    linkCapacity: 1,
    linksPerNode: sim.ports,
    vcs: sim.vcs,
    now: () => sim.cycle,
    quiet: () => sim.inFlight === 0,
    run: (cycles, beforeCycle) => sim.run(cycles, beforeCycle),
    skipTo: (cycle) => {
      if (cycle > sim.cycle) sim.cycle = cycle;
    },
    dead: (terminal) => sim.dead[Math.floor(terminal / k)] === 1,
    send: (terminal, _port, destination, _flits, tag) => {
      sim.send(terminal, destination, tag);
    },
    packetTag: (p) => sim.packetTag(p),
    packetSource: (p) => sim.packetSource(p),
    packetDestination: (p) => sim.packetDestination(p),
    packetHops: (p) => sim.packetHops(p),
    packetUnits: () => 1,
    packetLatency: (p, cycle) => cycle - sim.packetBorn(p),
    packetsAlive: (tag) => sim.packetsAlive(tag),
    retransmissions: () => 0,
    linkUnits: () => Float64Array.from(sim.portFlits),
    linkVcUnits: () => Float64Array.from(sim.portVcFlits),
    listen: (delivered, discarded) => {
      sim.onDeliver = delivered;
      sim.onDiscard = (p, reason, router, port) => discarded(p, reason, router, port);
    },
  };
}

export function startFlatTraffic(sim: FlatSim, request: TrafficRequest, shape: TrafficFabricShape): TorusTrafficRun {
  return new TorusTrafficRun(flatRunnerSim(sim), request, shape);
}
