/**
 * A FabricEngine (the link-layer engines: YARC's) as the host runs it: its time, its books, the
 * physical faults it takes, and itself for traffic runs.
 */
import type { FabricEngine, HostedEngine } from '../engine/fabric-engine';
import type { PhysicalFault } from './protocol';
import { startTraffic } from '../traffic/traffic-request';

export function hostedFabricEngine(sim: FabricEngine): HostedEngine {
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
    applyFault: (fault) => applyFault(sim, fault),
    traffic: sim,
    startTraffic: (request, shape, threads) => startTraffic(sim, request, shape, threads),
  };
}

/** Applies a physical fault to an emulated fabric; names that do not exist are errors. */
export function applyFault(sim: FabricEngine, fault: PhysicalFault): void {
  const chip = sim.fabric.chipId(fault.chip);
  switch (fault.action) {
    case 'kill-router':
    case 'revive-router':
      if (!sim.isRouter(chip)) throw new RangeError(`"${fault.chip}" is not a router`);
      if (fault.action === 'kill-router') sim.killRouter(chip);
      else sim.reviveRouter(chip);
      return;
    case 'cut-link':
      sim.cutLink(sim.fabric.portIndex(fault.chip, fault.port));
      return;
    case 'restore-link':
      sim.restoreLink(sim.fabric.portIndex(fault.chip, fault.port));
      return;
    case 'lane-bit-error-rate':
      if (!(fault.lane >= 0 && fault.lane < 3) || !(fault.rate >= 0 && fault.rate <= 1)) throw new RangeError('lane must be 0..2 and rate 0..1');
      sim.setLaneBitErrorRate(sim.fabric.portIndex(fault.chip, fault.port), fault.lane, fault.rate);
      return;
    case 'stop-accepting':
    case 'resume-accepting': {
      const g = sim.fabric.portIndex(fault.chip, fault.port);
      if (sim.endpointAt(g) < 0) throw new RangeError(`"${fault.chip}" is not a processor`);
      sim.setAccepting(g, fault.action !== 'stop-accepting');
      return;
    }
  }
}
