/**
 * The emulated fabric's ground truth: every chip and port of a physical installation in dense
 * integer form (STYLE.md: ids made once at the boundary, adjacency as offsets + neighbour arrays).
 * The cycle-level engine runs over these arrays; the control plane never sees them and learns the
 * cabling only through the maintenance transport.
 */
import type { FabricDesign } from '@weft/fabric-model';
import { shared } from './engine/shared-memory';
import { walkedState } from './engine/shared-state';

export class EmulatedFabric {
  /** Chip names by dense chip id. */
  readonly chipNames: readonly string[];
  /** `portBase[c]` is the global index of chip c's port 0; `portBase[chipCount]` the port count. */
  readonly portBase: Int32Array;
  /** Global index of the port at the far end of each port's cable, or -1 when nothing is plugged in. */
  readonly peer: Int32Array;
  /** Per-lane signalling rate of each port's cable in Gb/s (0 when unplugged). */
  readonly rateGbps: Float32Array;
  /** Cable length at each port in metres (0 when unplugged). */
  readonly lengthMeters: Float32Array;
  /** Lanes still working at each port (3 on a healthy YARC port, 0 when down or unplugged). */
  readonly activeLanes: Uint8Array;

  private readonly chipIndex = new Map<string, number>();

  constructor(readonly design: FabricDesign) {
    const chips = design.chips;
    this.chipNames = chips.map((c) => c.name);
    this.portBase = shared(Int32Array, chips.length + 1);
    for (let c = 0; c < chips.length; c++) {
      this.chipIndex.set(chips[c].name, c);
      this.portBase[c + 1] = this.portBase[c] + chips[c].portCount;
    }
    const ports = this.portBase[chips.length];
    this.peer = shared(Int32Array, ports).fill(-1);
    this.rateGbps = shared(Float32Array, ports);
    this.lengthMeters = shared(Float32Array, ports);
    this.activeLanes = shared(Uint8Array, ports);
    for (const cable of design.cables) {
      const a = this.portIndex(cable.a.chip, cable.a.port);
      const b = this.portIndex(cable.b.chip, cable.b.port);
      this.peer[a] = b;
      this.peer[b] = a;
      this.rateGbps[a] = this.rateGbps[b] = cable.rateGbps;
      this.lengthMeters[a] = this.lengthMeters[b] = cable.lengthMeters;
      this.activeLanes[a] = this.activeLanes[b] = cable.lanes;
    }
  }

  get chipCount(): number {
    return this.chipNames.length;
  }

  get portCount(): number {
    return this.portBase[this.chipNames.length];
  }

  chipId(name: string): number {
    const id = this.chipIndex.get(name);
    if (id === undefined) throw new RangeError(`no chip "${name}" in this fabric`);
    return id;
  }

  portIndex(chip: string, port: number): number {
    const c = this.chipId(chip);
    if (port < 0 || port >= this.portBase[c + 1] - this.portBase[c]) throw new RangeError(`chip "${chip}" has no port ${port}`);
    return this.portBase[c] + port;
  }

  /** Dense id of the chip that owns global port `g`. */
  portOwner(g: number): number {
    let lo = 0;
    let hi = this.chipNames.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.portBase[mid] <= g) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Bytes held by the typed arrays, for capacity reports. */
  get arrayBytes(): number {
    return this.portBase.byteLength + this.peer.byteLength + this.rateGbps.byteLength + this.lengthMeters.byteLength + this.activeLanes.byteLength;
  }
}

walkedState(EmulatedFabric, ['design', 'chipNames', 'chipIndex']);
