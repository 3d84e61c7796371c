/**
 * The flattened butterfly on a YARC-class chip (paper 003 §2.1, §6; spec §3.2(c), §4.2): what the
 * BlackWidow router can run of it, and what it cannot, said plainly.
 *
 * - The table: YARC routes by an associative table of 8 entries a tile, "each peer subtree given
 *   its own routing table entry" (paper 000 §5.1). A flattened butterfly's dimension-order route
 *   leaves for a different port towards each peer of each dimension, so the table needs an entry
 *   per peer: Σ (size − 1) over the dimensions. With 8, a one-dimensional flattened butterfly of 9
 *   routers is the most — BlackWidow's Rank 1.5, 9 × 32 = 288 processors, "limited by the size of
 *   the routing table" (§6). The 32-ary 2-flat's one dimension has 31 peers.
 * - The VCs: YARC has 2 VCs, the request and response classes (paper 000 §3), a packet keeping its
 *   VC end to end. Dimension-order routing needs one VC a class (each hop settles a higher
 *   dimension, so no route's channels can close a cycle), and so does the choice between a
 *   channel and its spare-port double; MIN AD on two or more dimensions needs n′ (its VC index
 *   counts hops remaining), and VAL, UGAL, UGAL-S and CLOS AD two a class, one a phase (§3.1):
 *   4 a port, which is why the flattened-butterfly router (chips/flat-router.ts) has 4.
 */
import { FLAT_ROUTINGS, FlatRouting, flatVcsNeeded } from '../chips/flat-router';
import { PORTS as YARC_PORTS, TABLE_ENTRIES as YARC_TABLE_ENTRIES, VCS as YARC_VCS } from '../chips/yarc';
import { FlatGrid } from './flat-topology';

export interface YarcTableFit {
  /** Table entries a tile needs: one a peer of each dimension. */
  readonly entriesNeeded: number;
  readonly entries: number;
  readonly expressible: boolean;
  readonly reason: string;
}

/** Whether YARC's routing table can route `grid` by dimension order, and why not. */
export function yarcTableFit(grid: FlatGrid): YarcTableFit {
  const peers = grid.sizes.map((s) => s - 1);
  const entriesNeeded = peers.reduce((a, b) => a + b, 0);
  const expressible = entriesNeeded <= YARC_TABLE_ENTRIES;
  const most = peers.reduce((a, b) => Math.max(a, b), 0);
  const where = peers.length === 1 ? `its dimension has ${most} peers` : `its dimensions have ${peers.join(' + ')} peers`;
  const reason = expressible
    ? `YARC's ${YARC_TABLE_ENTRIES}-entry routing table gives each of the ${entriesNeeded} peer routers an entry of its own (paper 000 §5.1)`
    : `YARC's routing table has ${YARC_TABLE_ENTRIES} entries a tile, one a peer router (paper 000 §5.1: "each peer subtree is given its own routing table entry"); ` +
      `${where}, ${entriesNeeded} entries — the table cannot express it. The most it routes is a one-dimensional flattened butterfly of ${YARC_TABLE_ENTRIES + 1} routers ` +
      `(BlackWidow's Rank 1.5, paper 003 §6); beyond that a flattened-butterfly routing unit must take the table's place`;
  return { entriesNeeded, entries: YARC_TABLE_ENTRIES, expressible, reason };
}

/** Why YARC's datapath cannot run `routing` on `dimensions` dimensions, or null where it can (one VC a class). */
export function yarcRoutingRefusal(routing: FlatRouting, dimensions: number): string | null {
  if (!FLAT_ROUTINGS.includes(routing)) return `unknown routing "${routing}"`;
  // Dimension order needs one VC a class (the flattened-butterfly router's n′ VC indexes are for MIN AD).
  const needed = routing === 'min' || (routing === 'min-ad' && dimensions === 1) ? 1 : flatVcsNeeded(routing, dimensions);
  const perClass = YARC_VCS / 2;
  if (needed <= perClass) return null;
  return (
    `${routing} needs ${needed} VCs a traffic class on ${dimensions} dimension${dimensions > 1 ? 's' : ''} (paper 003 §3.1), and YARC has ${YARC_VCS} VCs a port — ` +
    `one a class (request, response), a packet keeping its VC end to end (paper 000 §3); the flattened-butterfly router has ${needed * 2} or more`
  );
}

/** Ports a flattened butterfly's router uses, and whether they fit YARC's 64. */
export function yarcPortsFit(grid: FlatGrid): string | null {
  const used = grid.k + grid.sizes.reduce((s, size) => s + size - 1, 0);
  return used <= YARC_PORTS ? null : `a router of the ${grid.k}-terminal grid ${grid.sizes.join('×')} uses ${used} ports; YARC has ${YARC_PORTS}`;
}
