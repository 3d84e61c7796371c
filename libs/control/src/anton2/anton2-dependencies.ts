/**
 * The channel-dependency graph of an Anton 2 machine over every buffer a packet can hold — mesh,
 * skip, adapter and torus channels, by VC (spec §2.4, A-V3) — and whether it is acyclic, with a
 * cycle shown where it is not. One traffic class (the two are alike and use disjoint VCs, §2.5).
 *
 * A buffer is (ASIC, input of the chip wiring, VC); a dependency joins two buffers a packet holds
 * one after the other. The VCs follow the emulator's reading of §2.5: VC 0 from the source; the
 * torus hop that crosses its dimension's dateline (by the sending ASIC's dateline registers)
 * arrives on the next VC; a dimension finished without crossing raises the VC on the first
 * router's output after the arriving adapter, as the packet turns.
 *
 * Two builders: `anton2DependenciesByRoute` walks every route (every pair, order, slice and way of
 * a k/2 tie) — the reference for small tori — and `anton2Dependencies` builds the same graph from
 * what can arrive at each ASIC, without enumerating routes: a packet reaching ASIC n by channel c
 * has come h hops in c's dimension and has r to go (h ≥ 1, h + r ≤ k/2, a tie only as the tie rule
 * lets it), has crossed or not on the way, will cross or not on its next hop, and has finished b
 * other dimensions before (as many as the other rings allow); each such arrival class leads to the
 * through route, a turn into another dimension, or delivery. Coordinates and torus sizes are
 * assumed right (A-V1 checks them first); the datelines and the tie rule are read as configured.
 */
import * as model from '@weft/fabric-model';
import type { Anton2ChipWiring, Torus } from '@weft/fabric-model';

const { A2_INPUTS, A2_IN_CA_FROM_ROUTER, A2_IN_CA_FROM_TORUS, A2_IN_EA_INJECT, A2_EXIT_ENDPOINT, A2_EXITS, A2_PORTS, ANTON2_ORDERS } = model;
const ENDPOINTS = model.ANTON2_ENDPOINT_ADAPTERS;
const VCS = model.ANTON2_VCS_PER_CLASS;
const TOP = VCS - 1;

export interface Anton2DependencyInput {
  readonly torus: Torus;
  readonly wiring: Anton2ChipWiring;
  /** Per node (torus index) and dimension, the coordinate after which its + and − datelines lie. */
  readonly datelinePlus: Int32Array;
  readonly datelineMinus: Int32Array;
  readonly tieRule: 'random' | 'plus' | 'source-parity';
}

export interface Anton2DependencyReport {
  readonly acyclic: boolean;
  readonly buffers: number;
  readonly dependencies: number;
  /** A cycle of buffers named `ASIC:buffer/VC`, the first repeated at the end; null when acyclic. */
  readonly cycle: readonly string[] | null;
}

/** The chip-local inputs a packet holds from `entry` (a local input) to `exit`, both included. */
export function onChipInputs(wiring: Anton2ChipWiring, entry: number, exit: number, through: boolean): number[] {
  const out = [entry];
  let input = wiring.downstream[entry];
  for (;;) {
    out.push(input);
    if (input >= A2_IN_CA_FROM_ROUTER) return out;
    const r = (input / A2_PORTS) | 0;
    input = wiring.downstream[r * A2_PORTS + wiring.routeOut[(r * A2_EXITS + exit) * 2 + (through ? 1 : 0)]];
  }
}

/** Whether the hop from `node` in dimension d, direction `sign`, crosses its dateline (by that node's registers). */
function crosses(input: Anton2DependencyInput, node: number, d: number, sign: number): boolean {
  const k = input.torus.shape[d];
  const at = input.torus.coordinate(node, d);
  return sign > 0 ? at === input.datelinePlus[3 * node + d] : at === (input.datelineMinus[3 * node + d] + 1) % k;
}

/** Whether an offset of `ahead` (1 ≤ ahead ≤ k/2) from source coordinate `from` may go in direction `sign`. */
function mayGo(k: number, ahead: number, from: number, sign: number, tie: Anton2DependencyInput['tieRule']): boolean {
  if (2 * ahead < k) return true;
  if (2 * ahead > k) return false;
  if (tie === 'random') return true;
  return (tie === 'plus' || from % 2 === 0) === sign > 0;
}

/** A buffer's dependencies at most: a router input's five other outputs, each on its VC or the next, with room to spare. */
const MAX_DEPENDENCIES = 12;

/** Dependencies by buffer in fixed slots (typed: 16×16×16 has 2.7 million buffers). */
class EdgeSet {
  readonly next: Int32Array;
  readonly count: Uint8Array;
  constructor(readonly buffers: number) {
    this.next = new Int32Array(buffers * MAX_DEPENDENCIES);
    this.count = new Uint8Array(buffers);
  }
  add(from: number, to: number): void {
    const base = from * MAX_DEPENDENCIES;
    const n = this.count[from];
    for (let i = 0; i < n; i++) if (this.next[base + i] === to) return;
    if (n === MAX_DEPENDENCIES)
      throw new Error(`buffer ${from} has more than ${MAX_DEPENDENCIES} dependencies: the chip wiring is not the one this check was written for`);
    this.next[base + n] = to;
    this.count[from] = n + 1;
  }
  /** As a map, for comparing two builders. */
  toMap(): Map<number, Set<number>> {
    const map = new Map<number, Set<number>>();
    for (let b = 0; b < this.buffers; b++)
      if (this.count[b] > 0) map.set(b, new Set(this.next.subarray(b * MAX_DEPENDENCIES, b * MAX_DEPENDENCIES + this.count[b])));
    return map;
  }
  /** A cycle (buffers, the first repeated at the end), or null: an iterative depth-first search. */
  findCycle(): number[] | null {
    const n = this.buffers;
    const state = new Uint8Array(n); // 0 unvisited, 1 on the stack, 2 done
    const stack = new Int32Array(n);
    const cursor = new Uint8Array(n);
    for (let root = 0; root < n; root++) {
      if (state[root] !== 0 || this.count[root] === 0) continue;
      let top = 0;
      stack[0] = root;
      state[root] = 1;
      cursor[root] = 0;
      while (top >= 0) {
        const v = stack[top];
        if (cursor[v] < this.count[v]) {
          const w = this.next[v * MAX_DEPENDENCIES + cursor[v]++];
          if (state[w] === 1) {
            const cycle = [];
            for (let i = top; i >= 0 && stack[i] !== w; i--) cycle.push(stack[i]);
            cycle.push(w);
            cycle.reverse();
            cycle.push(w);
            return cycle;
          }
          if (state[w] === 0) {
            state[w] = 1;
            cursor[w] = 0;
            stack[++top] = w;
          }
        } else {
          state[v] = 2;
          top--;
        }
      }
    }
    return null;
  }
}

const buffer = (node: number, local: number, vc: number) => (node * A2_INPUTS + local) * VCS + (vc > TOP ? TOP : vc);

/** Adds the edges of one on-chip path: the first two inputs at `vcIn`, the rest at `vcOut` (the turn's rise comes at the first router's output). */
function addPath(edges: EdgeSet, node: number, path: readonly number[], vcIn: number, vcOut: number): void {
  for (let i = 1; i < path.length; i++) edges.add(buffer(node, path[i - 1], i - 1 < 2 ? vcIn : vcOut), buffer(node, path[i], i < 2 ? vcIn : vcOut));
}

/** The reference: every route walked. */
export function anton2DependenciesByRoute(input: Anton2DependencyInput): Anton2DependencyReport {
  return report(input, routeEdges(input));
}

/** The dependencies of every route, buffer to buffers (for comparing the two builders). */
export function edgesByRoute(input: Anton2DependencyInput): ReadonlyMap<number, ReadonlySet<number>> {
  return routeEdges(input).toMap();
}

function routeEdges(input: Anton2DependencyInput): EdgeSet {
  const { torus, wiring, tieRule } = input;
  const edges = new EdgeSet(torus.size * A2_INPUTS * VCS);
  const path = (entry: number, exit: number, through: boolean) => onChipInputs(wiring, entry, exit, through);
  const ends = new Set<string>();
  for (let s = 0; s < torus.size; s++) {
    for (let e = 0; e < ENDPOINTS; e++) for (let f = 0; f < ENDPOINTS; f++) addPath(edges, s, path(A2_IN_EA_INJECT + e, A2_EXIT_ENDPOINT + f, false), 0, 0);
    for (let t = 0; t < torus.size; t++) {
      if (s === t) continue;
      // Each dimension's ways: one, or both for a tie the rule lets go either way.
      const ways = [0, 1, 2].map((d) => {
        const k = torus.shape[d];
        const ahead = (((torus.coordinate(t, d) - torus.coordinate(s, d)) % k) + k) % k;
        if (ahead === 0) return [0];
        const out = [];
        if (mayGo(k, ahead, torus.coordinate(s, d), 1, tieRule) && 2 * ahead <= k) out.push(1);
        if (mayGo(k, k - ahead, torus.coordinate(s, d), -1, tieRule) && 2 * (k - ahead) <= k) out.push(-1);
        return out;
      });
      for (const sx of ways[0])
        for (const sy of ways[1])
          for (const sz of ways[2])
            for (const order of ANTON2_ORDERS) for (let slice = 0; slice < 2; slice++) walk(input, edges, s, t, order, slice, [sx, sy, sz], path, ends);
    }
  }
  return edges;
}

function walk(
  input: Anton2DependencyInput,
  edges: EdgeSet,
  s: number,
  t: number,
  order: readonly number[],
  slice: number,
  signs: readonly number[],
  path: (entry: number, exit: number, through: boolean) => number[],
  ends: Set<string>,
): void {
  const { torus } = input;
  const segments = order.filter((d) => signs[d] !== 0);
  let at = s;
  let vc = 0;
  let crossed = false;
  let first = true;
  let entry = -1; // the chip-local input the packet is in at `at`, −1 at the source
  for (let i = 0; i < segments.length; i++) {
    const d = segments[i];
    const sign = signs[d];
    const k = torus.shape[d];
    const ahead = (((torus.coordinate(t, d) - torus.coordinate(s, d)) % k) + k) % k;
    const steps = sign > 0 ? ahead : k - ahead;
    const port = model.anton2ChannelPort(d, sign < 0, slice);
    for (let h = 0; h < steps; h++) {
      // Into the channel adapter that leaves by `port`.
      if (first) {
        // Every endpoint of the source into this first channel adapter (walked once for all routes).
        if (!ends.has(`s${at}:${port}`)) for (let e = 0; e < ENDPOINTS; e++) addPath(edges, at, path(A2_IN_EA_INJECT + e, port, false), 0, 0);
        ends.add(`s${at}:${port}`);
        first = false;
      } else {
        const through = h > 0;
        const rise = through || crossed ? 0 : 1;
        addPath(edges, at, path(entry, port, through), vc, vc + rise);
        vc += rise;
        if (!through) crossed = false;
      }
      const cross = !crossed && crosses(input, at, d, sign);
      const next = torus.neighbour(at, 2 * d + (sign < 0 ? 1 : 0));
      const arrive = A2_IN_CA_FROM_TORUS + (port ^ 2);
      edges.add(buffer(at, A2_IN_CA_FROM_ROUTER + port, vc), buffer(next, arrive, cross ? vc + 1 : vc));
      if (cross) {
        vc++;
        crossed = true;
      }
      at = next;
      entry = arrive;
    }
  }
  const rise = crossed ? 0 : 1;
  const key = `t${at}:${entry}:${vc}:${rise}`;
  if (!ends.has(key)) for (let f = 0; f < ENDPOINTS; f++) addPath(edges, at, path(entry, A2_EXIT_ENDPOINT + f, false), vc, vc + rise);
  ends.add(key);
}

/** Without enumerating routes: by what can arrive at each ASIC (see the file's comment). */
export function anton2Dependencies(input: Anton2DependencyInput): Anton2DependencyReport {
  return report(input, arrivalEdges(input));
}

/** The dependencies built from what can arrive at each ASIC, buffer to buffers. */
export function edgesByArrival(input: Anton2DependencyInput): ReadonlyMap<number, ReadonlySet<number>> {
  return arrivalEdges(input).toMap();
}

function arrivalEdges(input: Anton2DependencyInput): EdgeSet {
  const { torus, wiring, tieRule } = input;
  const edges = new EdgeSet(torus.size * A2_INPUTS * VCS);
  const paths = new Map<number, number[]>();
  const path = (entry: number, exit: number, through: boolean) => {
    const key = (entry * A2_EXITS + exit) * 2 + (through ? 1 : 0);
    let p = paths.get(key);
    if (!p) paths.set(key, (p = onChipInputs(wiring, entry, exit, through)));
    return p;
  };
  const rings = [0, 1, 2].filter((d) => torus.shape[d] > 1);
  for (let n = 0; n < torus.size; n++) {
    // The source: any endpoint to any first hop a destination can ask for, or to any endpoint here.
    for (let e = 0; e < ENDPOINTS; e++) for (let f = 0; f < ENDPOINTS; f++) addPath(edges, n, path(A2_IN_EA_INJECT + e, A2_EXIT_ENDPOINT + f, false), 0, 0);
    for (const d of rings)
      for (const sign of [1, -1]) {
        if (!firstHopPossible(torus, n, d, sign, tieRule)) continue;
        for (let slice = 0; slice < 2; slice++) {
          const port = model.anton2ChannelPort(d, sign < 0, slice);
          for (let e = 0; e < ENDPOINTS; e++) addPath(edges, n, path(A2_IN_EA_INJECT + e, port, false), 0, 0);
          hop(input, edges, n, port, 0, crosses(input, n, d, sign));
        }
      }
    // What arrives by each channel: come h hops, r to go.
    for (const d of rings) {
      const others = rings.filter((o) => o !== d).length;
      for (const sign of [1, -1]) {
        const classes = arrivalClasses(input, n, d, sign);
        for (const { crossed, more, crossNext } of classes)
          for (let slice = 0; slice < 2; slice++) {
            const port = model.anton2ChannelPort(d, sign < 0, slice);
            const entry = A2_IN_CA_FROM_TORUS + (port ^ 2);
            for (let b = 0; b <= others; b++) {
              const vc = b + (crossed ? 1 : 0);
              if (more) {
                addPath(edges, n, path(entry, port, true), vc, vc);
                hop(input, edges, n, port, vc, crossNext);
                continue;
              }
              const vcOut = crossed ? vc : vc + 1;
              for (let f = 0; f < ENDPOINTS; f++) addPath(edges, n, path(entry, A2_EXIT_ENDPOINT + f, false), vc, vcOut);
              // A turn needs a dimension not yet done: b of the others are.
              if (b >= others) continue;
              for (const d2 of rings) {
                if (d2 === d) continue;
                for (const sign2 of [1, -1]) {
                  if (!firstHopPossible(torus, n, d2, sign2, tieRule)) continue;
                  const port2 = model.anton2ChannelPort(d2, sign2 < 0, slice);
                  addPath(edges, n, path(entry, port2, false), vc, vcOut);
                  hop(input, edges, n, port2, vcOut, crosses(input, n, d2, sign2));
                }
              }
            }
          }
      }
    }
  }
  return edges;
}

/** The torus hop out of `port` on VC vc, onto the next VC if it crosses. */
function hop(input: Anton2DependencyInput, edges: EdgeSet, n: number, port: number, vc: number, cross: boolean): void {
  const d = port >> 2;
  const next = input.torus.neighbour(n, 2 * d + (port & 2 ? 1 : 0));
  edges.add(buffer(n, A2_IN_CA_FROM_ROUTER + port, vc), buffer(next, A2_IN_CA_FROM_TORUS + (port ^ 2), cross ? vc + 1 : vc));
}

/** Whether a route may start in dimension d, direction `sign`, from node n (some destination asks for it). */
function firstHopPossible(torus: Torus, n: number, d: number, sign: number, tie: Anton2DependencyInput['tieRule']): boolean {
  const k = torus.shape[d];
  for (let ahead = 1; 2 * ahead <= k; ahead++) if (mayGo(k, ahead, torus.coordinate(n, d), sign, tie)) return true;
  return false;
}

/**
 * What can arrive at n travelling d in direction `sign`: for each h hops come and r to go, whether
 * it crossed on the way (by each sending node's registers), whether more is to come, and whether
 * the next hop crosses — the distinct combinations.
 */
function arrivalClasses(input: Anton2DependencyInput, n: number, d: number, sign: number): { crossed: boolean; more: boolean; crossNext: boolean }[] {
  const { torus, tieRule } = input;
  const k = torus.shape[d];
  const seen = new Map<number, { crossed: boolean; more: boolean; crossNext: boolean }>();
  const back = 2 * d + (sign > 0 ? 1 : 0);
  let from = n;
  let crossedSoFar = false;
  for (let h = 1; 2 * h <= k; h++) {
    from = torus.neighbour(from, back);
    // The hop from `from` towards n: crossing is decided at the sender, once.
    if (crosses(input, from, d, sign)) crossedSoFar = true;
    for (let r = 0; 2 * (h + r) <= k; r++) {
      if (!mayGo(k, h + r, torus.coordinate(from, d), sign, tieRule)) continue;
      const more = r > 0;
      const crossNext = more && !crossedSoFar && crosses(input, n, d, sign);
      const key = (crossedSoFar ? 4 : 0) + (more ? 2 : 0) + (crossNext ? 1 : 0);
      if (!seen.has(key)) seen.set(key, { crossed: crossedSoFar, more, crossNext });
    }
  }
  return [...seen.values()];
}

function report(input: Anton2DependencyInput, edges: EdgeSet): Anton2DependencyReport {
  const buffers = edges.buffers;
  let count = 0;
  for (let b = 0; b < buffers; b++) count += edges.count[b];
  const cycle = edges.findCycle();
  const name = (b: number) => {
    const vc = b % VCS;
    const slot = (b - vc) / VCS;
    const node = Math.floor(slot / A2_INPUTS);
    return `${input.torus.name(node)}:${model.anton2BufferName(slot % A2_INPUTS)}/${vc}`;
  };
  return { acyclic: cycle === null, buffers, dependencies: count, cycle: cycle && cycle.map(name) };
}
