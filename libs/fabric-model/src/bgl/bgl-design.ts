/**
 * Physical designs of the BlueGene/L torus (paper 002 §1, §2; spec §1.1): a three-dimensional
 * torus of identical nodes, each both an endpoint and a router, with six links in the hint-bit
 * order x+, x−, y+, y−, z+, z− as its ports 0 to 5. The machine is built of 8×8×8 midplanes (§3);
 * a link between two nodes of one midplane runs on its boards, and every other link — between
 * midplanes, or a midplane's wraparound back to itself — is a cable through the link cards. The
 * full machine is 64×32×32 (§4).
 *
 * Link latency is not in the paper beyond its simulator's "approximately w=10 network cycles"
 * between midplanes (§3): both latencies are design settings, in network cycles, 3 on the boards
 * and 10 on cables by default. A node's place is its coordinates; its name says them (`x3.y0.z7`).
 */
import { BGL_ASICS_PER_CARD, BGL_CARDS_PER_NODE_CARD, BGL_LINKS, BGL_MIDPLANE_SHAPE, BGL_NS_PER_CYCLE, BGL_PROCESSOR_CLOCK_MHZ } from '../chips/bgl-node';
import type { CableSpec, FabricDesign } from '../fabric-design';
import { InstallationFileError } from '../installation/installation-error';
import { JsonChecker } from '../installation/json-checker';
import { TieRule, Torus } from '../torus/torus';
import { checkTorusShape, torusChips, torusNodeName } from '../torus/torus-design';

export const BGL_NODE_MODEL = 'BGL-node';
/** §4: the full machine, 64×32×32 = 65,536 nodes. */
export const BGL_MAX_NODES = 65536;
/** §2: one byte per network cycle at the 175 MHz torus clock is 1.4 Gb/s, on one bit-serial lane. */
export const BGL_LINK_GBPS = (BGL_PROCESSOR_CLOCK_MHZ / 4) * 8e-3;

export interface BglDesignParams {
  /** Ring sizes k_x, k_y, k_z. */
  shape: [number, number, number];
  /** Network cycles a link takes on a midplane's boards (not in the paper: weft's setting, 3). */
  midplaneLinkCycles: number;
  /** Network cycles a cable between midplanes takes (§3: "approximately w=10 network cycles"). */
  cableLinkCycles: number;
}

/** Metres the design gives a link, for display and for the cost of a cable: boards and cables. */
const BOARD_METERS = 0.3;
const CABLE_METERS = 5;

/** The torus a BG/L design is, from its nodes' coordinates. */
export function designTorus(design: FabricDesign, tieRule: TieRule = 'plus'): Torus {
  const shape = [0, 1, 2].map((d) => {
    let top = -1;
    for (const chip of design.chips) top = Math.max(top, chip.coordinates?.[d] ?? -1);
    return top + 1;
  });
  return new Torus(shape, tieRule);
}

/** A node's name: its coordinates. */
export const bglNodeName = torusNodeName;

/** Whether the link from coordinate `c` to c+1 of a ring of `k` stays on one midplane's boards. */
export function onMidplaneBoards(c: number, k: number, midplaneSize: number): boolean {
  return c + 1 < k && Math.floor(c / midplaneSize) === Math.floor((c + 1) / midplaneSize);
}

/**
 * The control-network address of a node (§1: JTAG): its midplane, and in it its node card, compute
 * card and ASIC (§1.1: 2 ASICs a card, 16 cards a node card, 16 node cards a midplane). Where a
 * node sits on the cards is not in the paper: weft numbers a midplane's 512 nodes x fastest and
 * fills cards in that order.
 */
export function bglControlAddress(torus: Torus, node: number): [number, number, number, number] {
  const [mx, my, mz] = BGL_MIDPLANE_SHAPE;
  const [x, y, z] = torus.coordinates(node);
  const midplanesX = Math.ceil(torus.kx / mx);
  const midplanesY = Math.ceil(torus.ky / my);
  const midplane = Math.floor(x / mx) + midplanesX * (Math.floor(y / my) + midplanesY * Math.floor(z / mz));
  const inside = (x % mx) + mx * ((y % my) + my * (z % mz));
  const asic = inside % BGL_ASICS_PER_CARD;
  const card = Math.floor(inside / BGL_ASICS_PER_CARD) % BGL_CARDS_PER_NODE_CARD;
  const nodeCard = Math.floor(inside / (BGL_ASICS_PER_CARD * BGL_CARDS_PER_NODE_CARD));
  return [midplane, nodeCard, card, asic];
}

export function generateBglDesign(params: BglDesignParams): FabricDesign {
  const checker = new JsonChecker();
  const checked = checkBglDesign(params, checker);
  if (!checked) throw new InstallationFileError('design', checker.issues);
  const torus = new Torus(checked.shape);
  const chips = torusChips(torus, BGL_NODE_MODEL, BGL_LINKS);
  const cables: CableSpec[] = [];
  for (let node = 0; node < torus.size; node++) {
    for (let d = 0; d < 3; d++) {
      const k = torus.shape[d];
      const c = torus.coordinate(node, d);
      const boards = onMidplaneBoards(c, k, BGL_MIDPLANE_SHAPE[d]);
      // Each node's d+ port to its d+ neighbour's d− port: every port takes one link, also on a
      // ring of two, where the two links between a pair are both there.
      cables.push({
        a: { chip: chips[node].name, port: 2 * d },
        b: { chip: chips[torus.neighbour(node, 2 * d)].name, port: 2 * d + 1 },
        cableClass: 'torus',
        lengthMeters: boards ? BOARD_METERS : CABLE_METERS,
        rateGbps: BGL_LINK_GBPS,
        lanes: 1,
        latencyNs: (boards ? checked.midplaneLinkCycles : checked.cableLinkCycles) * BGL_NS_PER_CYCLE,
      });
    }
  }
  const midplanes = Math.ceil(torus.kx / 8) * Math.ceil(torus.ky / 8) * Math.ceil(torus.kz / 8);
  return {
    family: 'bgl',
    chips,
    cables,
    summary: { network: 'torus', shape: checked.shape.join('×'), nodes: torus.size, midplanes, cables: cables.length },
  };
}

/**
 * Checks a design's parameters as an installation file gives them (`$.design`), naming each
 * problem by its JSON path; fills in the defaults.
 */
export function checkBglDesign(value: unknown, c: JsonChecker): BglDesignParams | undefined {
  const d = c.object(value, '$.design', ['shape', 'midplaneLinkCycles', 'cableLinkCycles']);
  if (!d) return undefined;
  const shape = checkTorusShape(d.shape, c, { ring: [2, 256], nodes: [1, 'node', BGL_MAX_NODES, 'nodes (the full machine, 64×32×32)'] });
  const midplaneLinkCycles = d.midplaneLinkCycles === undefined ? 3 : c.integer(d.midplaneLinkCycles, '$.design.midplaneLinkCycles', 1, 1000);
  const cableLinkCycles = d.cableLinkCycles === undefined ? 10 : c.integer(d.cableLinkCycles, '$.design.cableLinkCycles', 1, 1000);
  if (!shape || midplaneLinkCycles === undefined || cableLinkCycles === undefined) return undefined;
  return { shape, midplaneLinkCycles, cableLinkCycles };
}
