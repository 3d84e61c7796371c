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
    const sim = this.sim;
    const node = this.fabric.chipId(fault.chip);
    const port = 'port' in fault ? fault.port : 0;
    if ('port' in fault && !(Number.isInteger(port) && port >= 0 && port < 6))
      throw new RangeError(`a BG/L node has ports 0 to 5 (x+, x−, y+, y−, z+, z−), got ${port}`);
    switch (fault.action) {
      case 'kill-router':
        sim.killNode(node);
        return;
      case 'revive-router':
        sim.reviveNode(node);
        return;
      case 'cut-link':
        sim.cutLink(node, port);
        return;
      case 'restore-link':
        sim.restoreLink(node, port);
        return;
      case 'lane-bit-error-rate': {
        if (fault.lane !== 0) throw new RangeError(`a BG/L link is one bit-serial lane (§2): lane 0, got ${fault.lane}`);
        // Noise on a cable: both directions.
        sim.setBitErrorRate(node, port, fault.rate);
        const far = sim.outNode[6 * node + port];
        if (far >= 0) sim.setBitErrorRate(far, sim.outPort[6 * node + port], fault.rate);
        return;
      }
      case 'stop-accepting':
      case 'resume-accepting':
        sim.setReading(node, fault.action === 'resume-accepting');
        return;
    }
  }
}
