/**
 * An emulated flattened butterfly as the emulator's host runs it (chip-models.ts): its time, its
 * books, and the physical faults a drill or a technician's hands do to it — a router dies or is
 * replaced (it comes back unconfigured), a cable between routers is cut or mended. The routers are
 * weft's idealised ones (§3.2): no link-level errors to inject, and terminals that always accept.
 */
import type { EmulatedFabric } from '../emulated-fabric';
import type { HostedEngine } from '../engine/fabric-engine';
import { booksFrom, PacketBooks } from '../engine/fabric-packets';
import type { PhysicalFault } from '../host/protocol';
import { applyPhysicalFault, FaultTarget } from '../engine/fault-injection';
import type { TrafficSession } from '../traffic/traffic-run';
import type { TrafficFabricShape, TrafficRequest } from '../traffic/traffic-request';
import { FlatSim } from './flat-sim';
import { startFlatTraffic } from './flat-traffic';

export class FlatHostedEngine implements HostedEngine {
  readonly sim: FlatSim;
  readonly traffic = null;

  constructor(
    readonly fabric: EmulatedFabric,
    seed: number,
  ) {
    this.sim = new FlatSim(fabric, { seed });
  }

  get cycle(): number {
    return this.sim.cycle;
  }

  get nsPerCycle(): number {
    return this.sim.nsPerCycle;
  }

  startTraffic(request: TrafficRequest, shape: TrafficFabricShape): TrafficSession {
    return startFlatTraffic(this.sim, request, shape);
  }

  step(): void {
    this.sim.step();
  }

  idle(): boolean {
    return this.sim.inFlight === 0;
  }

  books(): PacketBooks {
    const sim = this.sim;
    return booksFrom(sim.created, sim.delivered, sim.discardedBy, sim.heldPackets());
  }

  applyFault(fault: PhysicalFault): void {
    applyPhysicalFault(this.faults, fault);
  }

  /** A router's ports; §3.2's idealised routers have no link layer to corrupt, and terminals that take what arrives. */
  private readonly faults: FaultTarget = {
    fabric: this.fabric,
    whyNotKillable: () => null,
    portsOf: () => ({ count: this.sim.ports, described: `is a router of this flattened butterfly: ports 0 to ${this.sim.ports - 1}` }),
    lanes: "the flattened butterfly's routers are §3.2's idealised ones: their channels have no link layer to corrupt",
    whyNotAccepting: () => "a flattened butterfly's terminals take what arrives at once in this emulator: they cannot be stopped",
    killChip: (router) => this.sim.setRouterDead(router, true),
    reviveChip: (router) => this.sim.setRouterDead(router, false),
    setLinkDown: (router, port, down) => this.sim.setLinkDown(router, port, down),
    setLaneBitErrorRate: () => undefined,
    setAccepting: () => undefined,
  };
}
