/**
 * Discovery of an Anton 2 machine over its control network (spec §2.3 item 1): every place the
 * design's packaging has an ASIC ([backplane, nodecard], anton2ControlAddress) is asked who is
 * there, and every answering ASIC for its 12 torus channels as link training found them (the far
 * end's serial and port). The place gives the ASIC's coordinates — the control network reaches a
 * nodecard, not a route through the torus — and the channels are compared with the design's
 * cabling: miswired, missing and unreachable, each finding naming both ends (match-cabling.ts).
 */
import * as model from '@weft/fabric-model';
import type { FabricDesign, MaintenanceTransport, SourceRoute } from '@weft/fabric-model';
import { discoverOverControlNetwork } from '../discovery/control-network-discovery';
import type { KnownFabric } from '../discovery/known-fabric';

/** Each design ASIC's control-network address, in design order. */
export function anton2ControlAddresses(design: FabricDesign): SourceRoute[] {
  const torus = model.designTorus(design);
  return design.chips.map((c) => {
    const [x, y, z] = c.coordinates ?? [0, 0, 0];
    return model.anton2ControlAddress(torus, torus.index(x, y, z));
  });
}

export function discoverAnton2(transport: MaintenanceTransport, design: FabricDesign): Promise<KnownFabric> {
  return discoverOverControlNetwork(transport, design, anton2ControlAddresses(design), {
    identityRegister: 'asicIdentity',
    model: model.MODEL_ANTON2_ASIC,
    what: 'an ASIC',
    called: 'ASIC',
    linksRegister: 'channelStates',
    ports: model.ANTON2_CHANNEL_ADAPTERS,
  });
}
