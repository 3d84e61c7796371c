/**
 * A flattened butterfly router's registers decoded for an operator (the routerConfiguration
 * query): where it sits, how it routes, which port leads to each coordinate of each dimension (and
 * the one doubling it), what is masked and how each masked hop detours, and every register raw.
 */
import type { FabricDesign } from '@weft/fabric-model';
import { FLAT_ROUTINGS, flatCoordinates } from '@weft/fabric-model';
import { cabledPortsOutOfService, GenerationCircumstances, PortOutOfService } from '../engine/out-of-service';
import { FlatRouterImage, flatWriteList } from './flat-configuration';

export interface FlatRouterDescription {
  readonly name: string;
  readonly coordinates: readonly number[];
  /** Its service-network address: where the push writes. */
  readonly serviceAddress: readonly number[];
  /** `ugal (greedy allocator)`. */
  readonly routing: string;
  /** A line a dimension: each coordinate's port, doubled ports and detours said. */
  readonly portMap: readonly string[];
  /** VC of each hop index, and each VC's buffer. */
  readonly vcs: string;
  readonly excludedIntermediates: readonly string[];
  readonly raw: readonly { readonly register: string; readonly index: number; readonly value: readonly number[] }[];
}

export function describeFlatRouter(router: FlatRouterImage, design: FabricDesign): FlatRouterDescription {
  const [k, ...sizes] = router.gridShape;
  const nameAt = new Map(design.chips.map((c) => [(c.coordinates ?? []).join('.'), c.name]));
  const portMap: string[] = [];
  let base = 0;
  sizes.forEach((size, d) => {
    const entries: string[] = [];
    for (let m = 0; m < size; m++) {
      if (m === router.coordinates[d]) continue;
      const slot = base + m;
      const port = router.portMap[slot];
      const second = router.redundantMap[slot];
      let text = `${m}→${port}`;
      if (second >= 0) text += `+${second}`;
      if (router.portMask[port] && (second < 0 || router.portMask[second]))
        text += router.detourVia[slot] >= 0 ? ` masked, via ${router.detourVia[slot]}` : ' masked';
      else if (router.portMask[port]) text += ` (${port} masked)`;
      entries.push(text);
    }
    portMap.push(`dimension ${d + 1} (coordinate ${router.coordinates[d]} of ${size}): ${entries.join(', ')}`);
    base += size;
  });
  const [mode, sequential] = router.routingMode;
  const routers = sizes.reduce((a, b) => a * b, 1);
  const digits = (n: number) => flatCoordinates({ k, sizes }, n);
  return {
    name: router.name,
    coordinates: [...router.coordinates],
    serviceAddress: [...router.route],
    routing: `${FLAT_ROUTINGS[mode]} (${sequential ? 'sequential' : 'greedy'} allocator); terminals on ports 0–${k - 1}`,
    portMap,
    vcs: `hop index → VC ${router.vcMap.map((v, i) => `${i}→${v}`).join(', ')}; buffer split ${router.bufferSplit.join('/')} flits`,
    excludedIntermediates: router.excludedIntermediates.filter((b) => b < routers).map((b) => nameAt.get(digits(b).join('.')) ?? `router ${b}`),
    raw: flatWriteList(router).map((w) => ({ register: w.register, index: w.index, value: [...w.value] })),
  };
}

export function flatPortsOutOfService(router: FlatRouterImage, design: FabricDesign, circumstances: GenerationCircumstances | null): PortOutOfService[] {
  return cabledPortsOutOfService(router.name, design, circumstances, 'dimension');
}
