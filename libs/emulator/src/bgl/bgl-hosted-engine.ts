/**
 * An emulated BlueGene/L as the emulator's host runs it (chip-models.ts): its time, its books, and
 * the physical faults a drill or a technician's hands do to it — a node dies or is replaced, a
 * cable is cut or mended, a cable turns noisy (its one bit-serial lane: §2), a node's software
 * stops reading its reception FIFOs. Traffic runs go through the torus runner (bgl-traffic.ts),
 * not the link-layer runs (traffic is null).
 */
import type { EmulatedFabric } from '../emulated-fabric';
import type { HostedEngine } from '../engine/fabric-engine';
import { booksFrom, PacketBooks } from '../engine/fabric-packets';
import type { PhysicalFault } from '../host/protocol';
import { applyPhysicalFault, FaultTarget } from '../engine/fault-injection';
import { BglTorusSim } from './bgl-torus-sim';
import { startBglTraffic } from './bgl-traffic';
import type { TrafficFabricShape, TrafficRequest } from '../traffic/traffic-request';
import type { TrafficSession } from '../traffic/traffic-run';

export class BglHostedEngine implements HostedEngine {
  readonly sim: BglTorusSim;
  readonly traffic = null;

  constructor(
    readonly fabric: EmulatedFabric,
    seed: number,
  ) {
    this.sim = new BglTorusSim(fabric, seed);
  }

  get cycle(): number {
    return this.sim.cycle;
  }

  get nsPerCycle(): number {
    return this.sim.nsPerCycle;
  }

  /** The torus's own runner, on this thread. */
  startTraffic(request: TrafficRequest, shape: TrafficFabricShape): TrafficSession {
    return startBglTraffic(this.sim, request, shape);
  }

  step(): void {
    this.sim.run(1);
  }

  idle(): boolean {
    return this.sim.inFlight === 0;
  }

  books(): PacketBooks {
    const sim = this.sim;
    return booksFrom(sim.injected, sim.delivered, sim.discarded, sim.inFlight);
  }

  applyFault(fault: PhysicalFault): void {
    applyPhysicalFault(this.faults, fault);
  }

  /** A node's six torus ports, its one bit-serial lane a link (§2), its software's reading of the reception FIFOs. */
  private readonly faults: FaultTarget = {
    fabric: this.fabric,
    whyNotKillable: () => null,
    portsOf: () => ({ count: 6, described: 'is a BG/L node: ports 0 to 5 (x+, x−, y+, y−, z+, z−)' }),
    lanes: { count: 1, described: 'a BG/L link is one bit-serial lane (§2): lane 0' },
    whyNotAccepting: () => null,
    killChip: (node) => this.sim.killNode(node),
    reviveChip: (node) => this.sim.reviveNode(node),
    setLinkDown: (node, port, down) => (down ? this.sim.cutLink(node, port) : this.sim.restoreLink(node, port)),
    setLaneBitErrorRate: (node, port, _lane, rate) => {
      // Noise on a cable: both directions.
      const sim = this.sim;
      sim.setBitErrorRate(node, port, rate);
      const far = sim.outNode[6 * node + port];
      if (far >= 0) sim.setBitErrorRate(far, sim.outPort[6 * node + port], rate);
    },
    setAccepting: (node, _port, accepting) => this.sim.setReading(node, accepting),
  };
}
