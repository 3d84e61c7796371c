/**
 * A FabricEngine (the link-layer engines: YARC's) as the host runs it: its time, its books, the
 * physical faults it takes (engine/fault-injection.ts), and itself for traffic runs.
 */
import type { FabricEngine, HostedEngine } from '../engine/fabric-engine';
import { applyPhysicalFault, FaultTarget } from '../engine/fault-injection';
import { startTraffic } from '../traffic/traffic-request';

export function hostedFabricEngine(sim: FabricEngine): HostedEngine {
  const faults = linkEngineFaults(sim);
  return {
    get fabric() {
      return sim.fabric;
    },
    get cycle() {
      return sim.cycle;
    },
    get nsPerCycle() {
      return sim.nsPerCycle;
    },
    step: () => sim.step(),
    idle: () => sim.idle(),
    books: () => sim.packets.books(),
    applyFault: (fault) => applyPhysicalFault(faults, fault),
    traffic: sim,
    startTraffic: (request, shape, threads) => startTraffic(sim, request, shape, threads),
  };
}

/** A link-layer engine's chips as faults reach them: routers die, processors' software stops reading, a link has three lanes (YARC §4.3). */
export function linkEngineFaults(sim: FabricEngine): FaultTarget {
  const fabric = sim.fabric;
  return {
    fabric,
    whyNotKillable: (chip) => (sim.isRouter(chip) ? null : `"${fabric.chipNames[chip]}" is not a router`),
    portsOf: (chip) => ({
      count: fabric.portBase[chip + 1] - fabric.portBase[chip],
      described: `has ports 0 to ${fabric.portBase[chip + 1] - fabric.portBase[chip] - 1}`,
    }),
    lanes: { count: 3, described: 'a link has three lanes (YARC §4.3), 0 to 2' },
    whyNotAccepting: (chip, port) => (sim.endpointAt(fabric.portBase[chip] + port) < 0 ? `"${fabric.chipNames[chip]}" is not a processor` : null),
    killChip: (chip) => sim.killRouter(chip),
    reviveChip: (chip) => sim.reviveRouter(chip),
    setLinkDown: (chip, port, down) => (down ? sim.cutLink(fabric.portBase[chip] + port) : sim.restoreLink(fabric.portBase[chip] + port)),
    setLaneBitErrorRate: (chip, port, lane, rate) => sim.setLaneBitErrorRate(fabric.portBase[chip] + port, lane, rate),
    setAccepting: (chip, port, accepting) => sim.setAccepting(fabric.portBase[chip] + port, accepting),
  };
}
