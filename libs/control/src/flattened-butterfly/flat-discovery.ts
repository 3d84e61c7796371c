/**
 * Discovery of a flattened butterfly over its service network (spec §3.4): every router's place
 * (its coordinates, the service network's address of it) is asked who is there, and every
 * answering router for its channels as link training found them; the cabling is then compared with
 * eq. (1)'s as the design lays it out — a cable that does not match is a finding naming both ends
 * (match-cabling.ts).
 */
import * as model from '@weft/fabric-model';
import type { FabricDesign, MaintenanceTransport, SourceRoute } from '@weft/fabric-model';
import { discoverOverControlNetwork } from '../discovery/control-network-discovery';
import type { KnownFabric } from '../discovery/known-fabric';

/** Each design router's service-network address (its coordinates), in design order. */
export function flatServiceAddresses(design: FabricDesign): SourceRoute[] {
  return design.chips.map((c) => [...(c.coordinates ?? [])]);
}

export function discoverFlat(transport: MaintenanceTransport, design: FabricDesign): Promise<KnownFabric> {
  return discoverOverControlNetwork(transport, design, flatServiceAddresses(design), {
    identityRegister: 'routerIdentity',
    model: model.MODEL_FLAT_ROUTER,
    what: 'a flattened butterfly router',
    called: 'router',
    linksRegister: 'channelStates',
    ports: design.chips[0]?.portCount ?? 0,
  });
}
