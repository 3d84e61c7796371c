/**
 * One Anton 2 ASIC of a configuration image decoded for an operator (issue 37; the API's
 * Anton2AsicConfiguration): where it sits, its datelines (§2.5: the + and − datelines of a
 * dimension between the same two nodes), the destinations its route policy restricts and to which
 * (order, slice) combinations (§2.3), how its arbiters arbitrate and with what weights (§3.3), its
 * multicast table entry by entry (§2.3), and the writes the push makes — with each of its channels
 * the routing avoids, and why.
 */
import * as model from '@weft/fabric-model';
import type { FabricDesign } from '@weft/fabric-model';
import { cabledPortsOutOfService, GenerationCircumstances, PortOutOfService } from '../engine/out-of-service';
import { Anton2AsicImage, anton2WriteList } from './anton2-configuration';

const { ANTON2_ORDERS, anton2ChannelName } = model;
const AXES = 'XYZ';

export interface Anton2AsicDescription {
  readonly name: string;
  readonly coordinates: readonly number[];
  readonly torusSize: readonly number[];
  /** Its control-network address: where the push writes. */
  readonly controlAddress: readonly number[];
  readonly datelines: readonly { readonly dimension: string; readonly plus: number; readonly minus: number; readonly meaning: string }[];
  /** The destinations its route policy restricts, a line each (all others: every combination). */
  readonly routePolicy: readonly string[];
  readonly arbitration: string;
  /** The multicast table, a line per entry. */
  readonly multicastTable: readonly string[];
  readonly raw: readonly { readonly register: string; readonly index: number; readonly value: readonly number[] }[];
}

/** An (order, slice) combination by name, e.g. "YXZ/1". */
export const anton2RouteName = (combo: number): string => `${ANTON2_ORDERS[combo >> 1].map((d) => AXES[d]).join('')}/${combo & 1}`;

export function describeAnton2Asic(asic: Anton2AsicImage, design: FabricDesign): Anton2AsicDescription {
  const torus = model.designTorus(design);
  const nameAt: string[] = [];
  for (const c of design.chips) if (c.coordinates) nameAt[torus.index(c.coordinates[0], c.coordinates[1], c.coordinates[2])] = c.name;
  const restricted: string[] = [];
  for (let i = 0; i < asic.routePolicy.length; i += 2) {
    const [place, mask] = [asic.routePolicy[i], asic.routePolicy[i + 1]];
    const combos = Array.from({ length: 12 }, (_, r) => r).filter((r) => mask & (1 << r));
    restricted.push(
      combos.length === 0
        ? `${nameAt[place] ?? place}: none — unreachable`
        : `${nameAt[place] ?? place}: ${combos.map(anton2RouteName).join(', ')} (${combos.length} of 12)`,
    );
  }
  const weights = new Set(asic.arbiterWeights);
  const roundRobin = asic.arbiterModes.filter((m) => m === 1).length;
  const table = model.parseAnton2MulticastWords(asic.multicastTable);
  return {
    name: asic.name,
    coordinates: [...asic.nodeCoordinates],
    torusSize: [...asic.torusSize],
    controlAddress: [...asic.route],
    datelines: [0, 1, 2].map((d) => {
      const k = asic.torusSize[d];
      const plus = asic.datelines[d];
      const minus = asic.datelines[3 + d];
      const where = (at: number) => `between ${AXES[d].toLowerCase()}=${at} and ${AXES[d].toLowerCase()}=${(at + 1) % k}`;
      return {
        dimension: AXES[d].toLowerCase(),
        plus,
        minus,
        meaning: plus === minus ? `+ and − ${where(plus)}` : `+ ${where(plus)}, − ${where(minus)}: they do not coincide (A-V2)`,
      };
    }),
    routePolicy: restricted.length === 0 ? ['every destination: all 12 (order, slice) combinations'] : restricted,
    arbitration:
      `${roundRobin === 0 ? 'inverse-weighted at every SA2 arbiter' : roundRobin === asic.arbiterModes.length ? 'round robin at every SA2 arbiter' : `round robin at ${roundRobin} of ${asic.arbiterModes.length} SA2 arbiters, inverse-weighted at the rest`}` +
      `; inverse weights ${Math.min(...weights)}–${Math.max(...weights)} over two patterns (${weights.size} distinct values)`,
    multicastTable:
      typeof table === 'string'
        ? [`unreadable: ${table}`]
        : [...table].map(
            ([key, entry]) =>
              `group ${key >> 1} tree ${key & 1}: ${entry.endpoints.length > 0 ? `endpoints ${entry.endpoints.join(', ')}` : 'no endpoint'}; ${entry.channels.length > 0 ? `on by ${entry.channels.map(anton2ChannelName).join(', ')}` : 'no channel'}`,
          ),
    raw: anton2WriteList(asic),
  };
}

/** The ASIC's torus channels the configuration avoids (a dead neighbour, a channel a fault or finding names), each with why. */
export function anton2ChannelsOutOfService(asic: Anton2AsicImage, design: FabricDesign, circumstances: GenerationCircumstances | null): PortOutOfService[] {
  return cabledPortsOutOfService(asic.name, design, circumstances, 'torus');
}
