/**
 * The route-override table a BlueGene/L node's software consults at injection (spec §1.3 item 4,
 * §1.6). Paper 002 §2: "The hardware does not have the capability to route around 'dead' nodes or
 * links, however, software can set the hint bits appropriately so that such nodes are avoided".
 * The control plane writes each node's table over the control network; the node's software (the
 * emulator's, and a real node's) reads it as this file says. Both sides import this file: it is
 * the format, like a register layout in a datasheet, and holds no routing algorithm.
 *
 * A route is one of:
 * - **direct**: one leg, dynamic (hint bits; adaptive on the dynamic VCs, escaping to the bubble)
 *   or static (xyz on the bubble VC), with a direction per dimension — the minimal one the hint
 *   registers give, or d+ or d− chosen by software (the long way round);
 * - **relayed**: a direct leg to a relay node, whose software receives the packet and sends it on
 *   by a second direct leg given in the packet's software header (so a relay never consults its own
 *   table and relays never chain).
 *
 * The table is a list of entries, each a box of destinations (an arc per dimension) and its
 * candidates. The first entry whose box holds the destination decides: no candidates means the
 * destination is unreachable; otherwise the candidate with the fewest hops wins, a relay costing
 * `relayPenaltyHops` more (the software's receive and re-inject), ties going to the earlier one.
 * A destination no entry holds takes the hardware's route: dynamic, minimal, hints from the
 * registers. The choice among candidates is left to the node because which is shortest changes
 * within a box (comparing the long way round in two dimensions), while which are valid does not.
 *
 * Words (32-bit, the register's value): `[relayPenaltyHops, entryCount, entry…]`;
 * entry `[xLo, xLen, yLo, yLen, zLo, zLen, candidateCount, candidate…]` (an arc of `len`
 * coordinates from `lo` upwards, wrapping); candidate `[first, second, relayX, relayY, relayZ]`:
 * a leg is `kind | directions << 1` (kind 0 dynamic, 1 static; two bits per dimension, x lowest:
 * 0 minimal, 1 plus, 2 minus), `second` is −1 for a direct route, and a relay coordinate is
 * `base * 65536 + offset + 32768` with base 0 the source's coordinate, 1 the destination's,
 * 2 none (offset is then the coordinate itself).
 */
import type { Torus } from '../torus/torus';

export const LEG_DYNAMIC = 0;
export const LEG_STATIC = 1;
export const DIRECTION_MINIMAL = 0;
export const DIRECTION_PLUS = 1;
export const DIRECTION_MINUS = 2;
export const RELAY_FROM_SOURCE = 0;
export const RELAY_FROM_DESTINATION = 1;
export const RELAY_ABSOLUTE = 2;

export const TABLE_HEADER_WORDS = 2;
export const ENTRY_HEADER_WORDS = 7;
export const CANDIDATE_WORDS = 5;
export const NO_SECOND_LEG = -1;

/** A leg word: its kind and a direction choice per dimension. */
export function legWord(kind: number, directions: readonly number[]): number {
  return kind | (directions[0] << 1) | (directions[1] << 3) | (directions[2] << 5);
}
/** The hardware's own route as a leg: dynamic, minimal in every dimension (what a node sends by where no entry holds the destination). */
export const HARDWARE_LEG = legWord(LEG_DYNAMIC, [DIRECTION_MINIMAL, DIRECTION_MINIMAL, DIRECTION_MINIMAL]);
export function legKind(leg: number): number {
  return leg & 1;
}
export function legDirectionChoice(leg: number, d: number): number {
  return (leg >> (1 + 2 * d)) & 3;
}
export function relayWord(base: number, offset: number): number {
  return base * 65536 + offset + 32768;
}

/** The sign a leg moves in dimension `d` from coordinate `from` to `to`: 0 when they are equal. */
export function legSign(torus: Torus, leg: number, d: number, from: number, to: number): number {
  if (from === to) return 0;
  const choice = legDirectionChoice(leg, d);
  if (choice === DIRECTION_PLUS) return 1;
  if (choice === DIRECTION_MINUS) return -1;
  return torus.minimalSign(d, from, to);
}

/** Hops of a leg between two nodes. */
export function legHops(torus: Torus, leg: number, from: number, to: number): number {
  let hops = 0;
  for (let d = 0; d < 3; d++) {
    const a = torus.coordinate(from, d);
    const b = torus.coordinate(to, d);
    const sign = legSign(torus, leg, d, a, b);
    if (sign !== 0) hops += torus.hops(d, a, b, sign);
  }
  return hops;
}

/** The relay node of the candidate at word `at`, for source `s` and destination `t`. */
export function relayNode(torus: Torus, words: ArrayLike<number>, at: number, s: number, t: number): number {
  const c = [0, 0, 0];
  for (let d = 0; d < 3; d++) {
    const w = words[at + 2 + d];
    const base = (w / 65536) | 0;
    const offset = (w % 65536) - 32768;
    const k = torus.shape[d];
    const from = base === RELAY_FROM_SOURCE ? torus.coordinate(s, d) : base === RELAY_FROM_DESTINATION ? torus.coordinate(t, d) : 0;
    c[d] = (((from + offset) % k) + k) % k;
  }
  return torus.index(c[0], c[1], c[2]);
}

/** Whether coordinate `c` lies in the arc of `len` coordinates from `lo` upwards in a ring of `k`. */
export function inArc(c: number, lo: number, len: number, k: number): boolean {
  return (c - lo + k) % k < len;
}

/** The word offset of the first entry whose box holds `t`, or −1 (the hardware's route). */
export function findEntry(torus: Torus, words: ArrayLike<number>, t: number): number {
  if (words.length < TABLE_HEADER_WORDS) return -1;
  const count = words[1];
  let at = TABLE_HEADER_WORDS;
  const tx = torus.coordinate(t, 0);
  const ty = torus.coordinate(t, 1);
  const tz = torus.coordinate(t, 2);
  const kx = torus.kx;
  const ky = torus.ky;
  const kz = torus.kz;
  for (let e = 0; e < count; e++) {
    if (inArc(tx, words[at], words[at + 1], kx) && inArc(ty, words[at + 2], words[at + 3], ky) && inArc(tz, words[at + 4], words[at + 5], kz)) return at;
    at += ENTRY_HEADER_WORDS + CANDIDATE_WORDS * words[at + 6];
  }
  return -1;
}

/** The hops the candidate at `at` costs from `s` to `t`, a relay's penalty included. */
export function candidateCost(torus: Torus, words: ArrayLike<number>, at: number, s: number, t: number): number {
  const first = words[at];
  const second = words[at + 1];
  if (second === NO_SECOND_LEG) return legHops(torus, first, s, t);
  const r = relayNode(torus, words, at, s, t);
  return legHops(torus, first, s, r) + legHops(torus, second, r, t) + words[0];
}

/**
 * The node software's choice for destination `t` from `s`: the word offset of the chosen
 * candidate, −1 for the hardware's route (no entry holds `t`), −2 for unreachable.
 */
export function chooseRoute(torus: Torus, words: ArrayLike<number>, s: number, t: number): number {
  const entry = findEntry(torus, words, t);
  if (entry < 0) return -1;
  const count = words[entry + 6];
  if (count === 0) return -2;
  let best = entry + ENTRY_HEADER_WORDS;
  let bestCost = candidateCost(torus, words, best, s, t);
  for (let i = 1; i < count; i++) {
    const at = entry + ENTRY_HEADER_WORDS + CANDIDATE_WORDS * i;
    const cost = candidateCost(torus, words, at, s, t);
    if (cost < bestCost) {
      best = at;
      bestCost = cost;
    }
  }
  return best;
}

export const ROUTE_HARDWARE = -1;
export const ROUTE_UNREACHABLE = -2;

/** A table's words as readable text, one entry per line (for display and golden files). */
export function describeOverrideTable(torus: Torus, words: ArrayLike<number>): string[] {
  if (words.length < TABLE_HEADER_WORDS) return [];
  const lines = [`relay penalty ${words[0]} hops, ${words[1]} entries`];
  const arc = (lo: number, len: number, k: number) => (len === k ? '*' : len === 1 ? `${lo}` : `${lo}..${(lo + len - 1) % k}`);
  const leg = (w: number) => {
    const dirs = [0, 1, 2].map((d) => ['', '+', '-'][legDirectionChoice(w, d)]).map((c, d) => (c ? 'xyz'[d] + c : ''));
    return `${legKind(w) === LEG_DYNAMIC ? 'dynamic' : 'static'}${dirs.join('') ? ` ${dirs.join('')}` : ''}`;
  };
  const relay = (w: number, d: number) => {
    const base = (w / 65536) | 0;
    const offset = (w % 65536) - 32768;
    if (base === RELAY_ABSOLUTE) return `${offset}`;
    const name = `${base === RELAY_FROM_SOURCE ? 's' : 't'}${'xyz'[d]}`;
    return offset === 0 ? name : `${name}${offset > 0 ? '+' : ''}${offset}`;
  };
  let at = TABLE_HEADER_WORDS;
  for (let e = 0; e < words[1]; e++) {
    const [kx, ky, kz] = torus.shape;
    const box = `(${arc(words[at], words[at + 1], kx)}, ${arc(words[at + 2], words[at + 3], ky)}, ${arc(words[at + 4], words[at + 5], kz)})`;
    const candidates: string[] = [];
    for (let i = 0; i < words[at + 6]; i++) {
      const c = at + ENTRY_HEADER_WORDS + CANDIDATE_WORDS * i;
      candidates.push(
        words[c + 1] === NO_SECOND_LEG
          ? leg(words[c])
          : `${leg(words[c])} to (${[0, 1, 2].map((d) => relay(words[c + 2 + d], d)).join(',')}) then ${leg(words[c + 1])}`,
      );
    }
    lines.push(`${box}: ${candidates.length === 0 ? 'unreachable' : candidates.join(' | ')}`);
    at += ENTRY_HEADER_WORDS + CANDIDATE_WORDS * words[at + 6];
  }
  return lines;
}

/**
 * What is wrong with a table's words, or undefined: the node's software refuses a table it cannot
 * read whole (a count that runs past the end, an arc outside the ring, a leg or relay word it does
 * not know), rather than route by part of it.
 */
export function checkOverrideTable(torus: Torus, words: ArrayLike<number>): string | undefined {
  if (words.length < TABLE_HEADER_WORDS) return `a table starts with ${TABLE_HEADER_WORDS} words (relay penalty, entry count), got ${words.length}`;
  for (let i = 0; i < words.length; i++) if (!Number.isInteger(words[i])) return `word ${i} is not a whole number`;
  if (words[0] < 0 || words[0] > 1000) return `the relay penalty must be 0 to 1000 hops, got ${words[0]}`;
  let at = TABLE_HEADER_WORDS;
  for (let e = 0; e < words[1]; e++) {
    if (at + ENTRY_HEADER_WORDS > words.length) return `entry ${e} runs past the end of the table`;
    for (let d = 0; d < 3; d++) {
      const k = torus.shape[d];
      const lo = words[at + 2 * d];
      const len = words[at + 2 * d + 1];
      if (lo < 0 || lo >= k || len < 1 || len > k) return `entry ${e}: the ${'xyz'[d]} arc ${lo}+${len} is not within a ring of ${k}`;
    }
    const count = words[at + 6];
    if (count < 0 || at + ENTRY_HEADER_WORDS + CANDIDATE_WORDS * count > words.length) return `entry ${e}'s ${count} candidates run past the end of the table`;
    for (let c = 0; c < count; c++) {
      const w = at + ENTRY_HEADER_WORDS + CANDIDATE_WORDS * c;
      const legOk = (leg: number) => leg >= 0 && leg < 128 && [0, 1, 2].every((d) => legDirectionChoice(leg, d) <= DIRECTION_MINUS);
      if (!legOk(words[w])) return `entry ${e}, candidate ${c}: leg word ${words[w]} is not a leg`;
      if (words[w + 1] !== NO_SECOND_LEG) {
        if (!legOk(words[w + 1])) return `entry ${e}, candidate ${c}: second leg word ${words[w + 1]} is not a leg`;
        for (let d = 0; d < 3; d++) {
          const base = Math.floor(words[w + 2 + d] / 65536);
          if (base < RELAY_FROM_SOURCE || base > RELAY_ABSOLUTE) return `entry ${e}, candidate ${c}: relay word ${words[w + 2 + d]} names no base`;
        }
      }
    }
    at += ENTRY_HEADER_WORDS + CANDIDATE_WORDS * count;
  }
  if (at !== words.length) return `${words.length - at} words follow the last entry`;
  return undefined;
}
