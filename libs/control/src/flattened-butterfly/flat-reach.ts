/**
 * Which live routers of a flattened butterfly reach which by dimension order over an image's
 * registers (spec §3.6), as the routers will route: at each router the hop towards the
 * destination's coordinate of the next dimension that differs, through its channel or the one
 * doubling it (Fig. 14(a)); where both are masked, round by the router's detour — once a walk (a
 * phase); a walk into a router the image does not configure (a dead one) is lost.
 *
 * Over typed arrays (a router by its grid index, a hop by its map slot), and after a change again
 * by re-walking only the walks that can have changed (issue 55: the 65,536-terminal machine has
 * 16.8 M walks between routers; a cut cable changes the registers of two). A walk reads the
 * registers of the routers it visits — along its dimension-ordered path and a detour's middle
 * router — and nothing else, so a walk that visited no router whose registers changed goes as it
 * went. The walks that visit a router c are enumerated, not searched: on the path, the router after
 * j dimensions is the destination's coordinates in the first j and the source's in the rest, so the
 * walks through c there are c's coordinates with the source free in the first j and the
 * destination free in the rest; as a detour's middle, the walks standing at a router of c's line in
 * dimension j whose detour towards some coordinate names c's.
 */
import * as model from '@weft/fabric-model';
import type { FlatGrid } from '@weft/fabric-model';
import type { FlatRouterImage } from './flat-configuration';

export class FlatReach {
  /** Routers of the grid, map slots a router (the sizes summed), dimensions. */
  readonly routers: number;
  readonly slots: number;
  readonly dims: number;
  /** Grid index step of each dimension, and the first map slot of each. */
  private readonly stride: Int32Array;
  private readonly mapBase: Int32Array;
  /** Each router's coordinates (router × dims + d). */
  private readonly coordinates: Int16Array;
  /** Per router: configured (live); per router and slot: the hop open, its detour's coordinate (−1: none). */
  readonly live: Uint8Array;
  readonly open: Uint8Array;
  readonly via: Int16Array;
  /** The router images the registers were read from, by grid index. */
  readonly images: (FlatRouterImage | undefined)[];
  /** Walks that do not get through: a bit per (source, destination), source × routers + destination. */
  readonly failing: Uint32Array;
  private failingCount = 0;

  private constructor(
    readonly grid: FlatGrid,
    from?: FlatReach,
  ) {
    const dims = grid.sizes.length;
    const routers = model.flatRouterCount(grid);
    this.routers = routers;
    this.dims = dims;
    this.slots = grid.sizes.reduce((a, b) => a + b, 0);
    if (from) {
      this.stride = from.stride;
      this.mapBase = from.mapBase;
      this.coordinates = from.coordinates;
      this.live = from.live.slice();
      this.open = from.open.slice();
      this.via = from.via.slice();
      this.images = from.images.slice();
      this.failing = from.failing.slice();
      this.failingCount = from.failingCount;
      return;
    }
    this.stride = new Int32Array(dims);
    this.mapBase = new Int32Array(dims);
    for (let d = 0, step = 1, base = 0; d < dims; d++) {
      this.stride[d] = step;
      this.mapBase[d] = base;
      step *= grid.sizes[d];
      base += grid.sizes[d];
    }
    this.coordinates = new Int16Array(routers * dims);
    for (let r = 0; r < routers; r++) for (let d = 0; d < dims; d++) this.coordinates[r * dims + d] = Math.floor(r / this.stride[d]) % grid.sizes[d];
    this.live = new Uint8Array(routers);
    this.open = new Uint8Array(routers * this.slots);
    this.via = new Int16Array(routers * this.slots).fill(-1);
    this.images = new Array<FlatRouterImage | undefined>(routers);
    this.failing = new Uint32Array(Math.ceil((routers * routers) / 32));
  }

  /** Every walk between the live routers of `images`, walked. */
  static of(grid: FlatGrid, images: readonly FlatRouterImage[]): FlatReach {
    const reach = new FlatReach(grid);
    for (const image of images) reach.read(model.flatRouterIndex(grid, image.coordinates), image);
    // Every router live and every hop open: every walk gets through, each hop to a live router.
    if (reach.live.every((l) => l === 1) && reach.open.every((o) => o === 1)) return reach;
    for (let s = 0; s < reach.routers; s++) if (reach.live[s]) for (let t = 0; t < reach.routers; t++) if (t !== s && reach.live[t]) reach.record(s, t);
    return reach;
  }

  /**
   * The reach of `images`, from this one's (left as it is): the routers whose image object is not
   * the one read here have their registers read again, and only the walks that visited one of the
   * routers whose registers changed are walked again.
   */
  after(images: readonly FlatRouterImage[]): FlatReach {
    const next = new FlatReach(this.grid, this);
    const changed: number[] = [];
    const present = new Uint8Array(this.routers);
    for (const image of images) {
      const r = model.flatRouterIndex(this.grid, image.coordinates);
      present[r] = 1;
      if (this.images[r] === image) continue;
      if (next.read(r, image)) changed.push(r);
    }
    for (let r = 0; r < this.routers; r++)
      if (!present[r] && this.live[r]) {
        next.live[r] = 0;
        next.images[r] = undefined;
        changed.push(r);
      }
    // The walks that visited a changed router, as this reach walked them.
    for (const c of changed) {
      this.walksThrough(c, (s, t) => next.record(s, t));
      this.walksDetouringThrough(c, (s, t) => next.record(s, t));
    }
    return next;
  }

  /** Walks that do not get through, and walks between live routers. */
  get lost(): number {
    return this.failingCount;
  }

  get pairs(): number {
    let live = 0;
    for (let r = 0; r < this.routers; r++) live += this.live[r];
    return live * (live - 1);
  }

  /** The walks that do not get through, by source: grid indices. */
  failingWalks(): [number, number[]][] {
    const bySource = new Map<number, number[]>();
    for (let w = 0; w < this.failing.length; w++) {
      let bits = this.failing[w];
      while (bits !== 0) {
        const low = bits & -bits;
        const pair = w * 32 + (31 - Math.clz32(low));
        bits ^= low;
        const s = Math.floor(pair / this.routers);
        const list = bySource.get(s) ?? [];
        list.push(pair % this.routers);
        bySource.set(s, list);
      }
    }
    return [...bySource].sort((a, b) => a[0] - b[0]);
  }

  /** Reads router r's registers; whether they differ from what was held. */
  private read(r: number, image: FlatRouterImage): boolean {
    this.images[r] = image;
    let changed = this.live[r] === 0;
    this.live[r] = 1;
    const base = r * this.slots;
    for (let slot = 0; slot < this.slots; slot++) {
      const port = image.portMap[slot];
      const second = image.redundantMap[slot];
      const open = port < 0 || !image.portMask[port] || (second >= 0 && !image.portMask[second]) ? 1 : 0;
      const via = image.detourVia[slot];
      if (this.open[base + slot] !== open || this.via[base + slot] !== via) changed = true;
      this.open[base + slot] = open;
      this.via[base + slot] = via;
    }
    return changed;
  }

  /** Walks (s, t) between live routers, its verdict kept. */
  private record(s: number, t: number): void {
    if (s === t) return;
    const bit = s * this.routers + t;
    const word = bit >>> 5;
    const mask = 1 << (bit & 31);
    const was = (this.failing[word] & mask) !== 0;
    const fails = this.live[s] === 1 && this.live[t] === 1 && !this.walk(s, t);
    if (fails === was) return;
    this.failing[word] ^= mask;
    this.failingCount += fails ? 1 : -1;
  }

  /** Whether the walk from s gets to t, a detour at most. */
  private walk(s: number, t: number): boolean {
    const { dims, slots, coordinates, stride, mapBase, open, via, live } = this;
    let at = s;
    let detoured = false;
    for (let d = 0; d < dims; d++) {
      const want = coordinates[t * dims + d];
      const here = coordinates[at * dims + d];
      if (here === want) continue;
      const slot = mapBase[d] + want;
      if (open[at * slots + slot]) {
        at += (want - here) * stride[d];
        if (!live[at]) return false;
        continue;
      }
      const v = via[at * slots + slot];
      if (detoured || v < 0) return false;
      detoured = true;
      const middle = at + (v - here) * stride[d];
      if (!live[middle] || !open[middle * slots + slot]) return false;
      at = middle + (want - v) * stride[d];
      if (!live[at]) return false;
    }
    return at === t;
  }

  /** Every (s, t) whose dimension-ordered path passes router c (as its source, after j dimensions, or as its destination). */
  private walksThrough(c: number, visit: (s: number, t: number) => void): void {
    const { dims, stride } = this;
    const sizes = this.grid.sizes;
    for (let j = 0; j <= dims; j++) {
      // The source is c's in dimensions j and on, free before; the destination c's before j, free from j.
      const sourceFree = j === 0 ? 1 : stride[j - 1] * sizes[j - 1];
      const destinationFree = this.routers / sourceFree;
      const sourceBase = c - (c % sourceFree);
      const destinationBase = c % sourceFree;
      for (let a = 0; a < sourceFree; a++) {
        const s = sourceBase + a;
        for (let b = 0; b < destinationFree; b++) visit(s, destinationBase + b * sourceFree);
      }
    }
  }

  /** Every (s, t) that stands at a router of c's line in some dimension j and detours through c towards t's coordinate. */
  private walksDetouringThrough(c: number, visit: (s: number, t: number) => void): void {
    const { dims, slots, stride, mapBase, via, coordinates } = this;
    const sizes = this.grid.sizes;
    for (let j = 0; j < dims; j++) {
      const own = coordinates[c * dims + j];
      for (let u = 0; u < sizes[j]; u++) {
        if (u === own) continue;
        const a = c + (u - own) * stride[j];
        for (let m = 0; m < sizes[j]; m++) {
          if (via[a * slots + mapBase[j] + m] !== own) continue;
          // At a after j dimensions, bound for coordinate m of dimension j: the source a's from j on
          // (free before), the destination a's before j, m in j, free after.
          const sourceFree = stride[j];
          const low = a % sourceFree;
          const sourceBase = a - low;
          const above = stride[j] * sizes[j];
          const destinationFree = this.routers / above;
          const withM = low + m * stride[j];
          for (let x = 0; x < sourceFree; x++) for (let y = 0; y < destinationFree; y++) visit(sourceBase + x, withM + y * above);
        }
      }
    }
  }
}
