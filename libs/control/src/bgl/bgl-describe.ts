/**
 * One BlueGene/L node of a configuration image decoded for an operator (issue 36; the API's
 * BglNodeConfiguration): where it sits, what its neighbour and hint registers say (paper 002 §2),
 * its arbitration and bubble policy, its route-override table entry by entry, and the writes the
 * push makes — with each of its links the routing avoids, and why.
 */
import * as format from '@weft/fabric-model';
import type { FabricDesign } from '@weft/fabric-model';
import { cabledPortsOutOfService, GenerationCircumstances, PortOutOfService } from '../engine/out-of-service';
import { BglNodeImage, nodeWrites } from './bgl-routing-engine';

const DIRECTIONS = ['x+', 'x−', 'y+', 'y−', 'z+', 'z−'];

export interface BglNodeDescription {
  readonly name: string;
  readonly coordinates: readonly number[];
  /** Its control-network address: midplane, node card, card, ASIC (§1). */
  readonly controlAddress: readonly number[];
  /** Per direction, the coordinates its neighbour register holds, and the node there. */
  readonly neighbours: readonly { readonly direction: string; readonly coordinates: readonly number[]; readonly node: string }[];
  /** Per dimension, the two hint registers and the directions they give. */
  readonly hints: readonly { readonly dimension: string; readonly cutoffPlus: number; readonly cutoffMinus: number; readonly meaning: string }[];
  readonly arbitration: { readonly slqPermille: number; readonly inNetworkPriorityPermille: number; readonly packetArbitration: string };
  readonly bubble: { readonly accounting: string; readonly escapeOrder: string };
  /** The route-override table, a line per entry (route-override-table.ts's reading). */
  readonly routeOverrides: readonly string[];
  readonly raw: readonly { readonly register: string; readonly index: number; readonly value: readonly number[] }[];
}

export function describeBglNode(node: BglNodeImage, design: FabricDesign, circumstances: GenerationCircumstances | null = null): BglNodeDescription {
  const torus = format.designTorus(design);
  const chip = design.chips.find((c) => c.name === node.name);
  const at = chip?.coordinates ?? [0, 0, 0];
  return {
    name: node.name,
    coordinates: [...at],
    controlAddress: [...node.route],
    neighbours: DIRECTIONS.map((direction, dir) => {
      const c = node.neighbourCoordinates.slice(3 * dir, 3 * dir + 3);
      return { direction, coordinates: c, node: format.bglNodeName(c[0], c[1], c[2]) };
    }),
    hints: [0, 1, 2].map((d) => {
      const k = torus.shape[d];
      const s = at[d];
      const plus = node.hintCutoffPlus[d];
      const minus = node.hintCutoffMinus[d];
      const ahead = (plus - s + k) % k;
      const behind = (s - minus + k) % k;
      const axis = 'xyz'[d];
      const parts = [ahead > 0 ? `${axis}+ to ${(s + 1) % k}…${plus}` : `no ${axis}+`, behind > 0 ? `${axis}− to ${minus}…${(s - 1 + k) % k}` : `no ${axis}−`];
      return { dimension: axis, cutoffPlus: plus, cutoffMinus: minus, meaning: `from ${axis}=${s} of ${k}: ${parts.join(', ')}` };
    }),
    arbitration: {
      slqPermille: node.arbitration[0],
      inNetworkPriorityPermille: node.arbitration[1],
      packetArbitration: node.arbitration[2] === 1 ? 'random (the base policy)' : 'JSQ by 2-bit token ranges',
    },
    bubble: {
      accounting: node.bubble[0] === 1 ? 'by size' : 'full-size (BG/L’s correction)',
      escapeOrder: node.bubble[1] === 1 ? 'direction-ordered' : 'dimension-ordered',
    },
    routeOverrides: [
      ...format.describeOverrideTable(torus, node.routeOverrides),
      // Issue 55: where its table holds no entries, the node's software builds them from the fault set broadcast to every node.
      ...(node.routeOverrides[1] === 0 && circumstances && (circumstances.faults.length > 0 || circumstances.findings.length > 0)
        ? ['its software builds its entries from the fault set broadcast to every node (the faults and findings this generation routes around)']
        : []),
    ],
    raw: nodeWrites(node),
  };
}

/** The node's cabled links the configuration avoids — towards a dead node, or a cable a fault or finding names — each with why. */
export function bglLinksOutOfService(node: BglNodeImage, design: FabricDesign, circumstances: GenerationCircumstances | null): PortOutOfService[] {
  return cabledPortsOutOfService(node.name, design, circumstances, 'torus');
}
