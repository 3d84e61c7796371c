/**
 * An emulated Anton 2 machine as the emulator's host runs it (chip-models.ts): its time, its books,
 * and the physical faults a drill or a technician's hands do to it — an ASIC dies or is replaced, a
 * torus channel is cut or mended, a channel turns noisy (go-back-N resends what arrives corrupted).
 * Traffic runs go through the torus runner (anton2-traffic.ts).
 */
import type { EmulatedFabric } from '../emulated-fabric';
import type { HostedEngine } from '../engine/fabric-engine';
import { booksFrom, PacketBooks } from '../engine/fabric-packets';
import type { PhysicalFault } from '../host/protocol';
import { applyPhysicalFault, FaultTarget } from '../engine/fault-injection';
import type { TrafficSession } from '../traffic/traffic-run';
import type { TrafficFabricShape, TrafficRequest } from '../traffic/traffic-request';
import { startAnton2Traffic } from './anton2-traffic';
import { Anton2Sim } from './anton2-sim';
import { shippedAnton2Floorplan } from '@weft/fabric-model';

export class Anton2HostedEngine implements HostedEngine {
  readonly sim: Anton2Sim;
  readonly traffic = null;

  constructor(
    readonly fabric: EmulatedFabric,
    seed: number,
  ) {
    this.sim = new Anton2Sim(fabric, shippedAnton2Floorplan(), seed);
  }

  get cycle(): number {
    return this.sim.now;
  }

  get nsPerCycle(): number {
    return this.sim.nsPerCycle;
  }

  /** The torus runner, on this thread. */
  startTraffic(request: TrafficRequest, shape: TrafficFabricShape): TrafficSession {
    return startAnton2Traffic(this.sim, request, shape, request.multicast);
  }

  step(): void {
    this.sim.run(1);
  }

  idle(): boolean {
    return this.sim.inFlight === 0;
  }

  books(): PacketBooks {
    const sim = this.sim;
    return booksFrom(sim.injected + sim.copies, sim.delivered, sim.discarded, sim.inFlight);
  }

  applyFault(fault: PhysicalFault): void {
    applyPhysicalFault(this.faults, fault);
  }

  /** An ASIC's twelve torus channels, eight SerDes lanes a channel (§2.2; go-back-N resends a corrupted flit, whichever lane). */
  private readonly faults: FaultTarget = {
    fabric: this.fabric,
    whyNotKillable: () => null,
    portsOf: () => ({ count: 12, described: 'is an Anton 2 ASIC: channel ports 0 to 11 (X0+, X1+, X0−, X1−, then Y and Z)' }),
    lanes: { count: 8, described: 'an Anton 2 channel has eight SerDes lanes (§2.2), 0 to 7' },
    whyNotAccepting: () => "an Anton 2 endpoint's software reads what arrives at once in this emulator: it cannot be stopped",
    killChip: (node) => this.sim.killNode(node),
    reviveChip: (node) => this.sim.reviveNode(node),
    setLinkDown: (node, port, down) => this.sim.setChannelDown(node, port, down),
    // Noise on a channel: both directions.
    setLaneBitErrorRate: (node, port, _lane, rate) => this.sim.setBitErrorRate(node, port, rate),
    setAccepting: () => undefined,
  };
}
