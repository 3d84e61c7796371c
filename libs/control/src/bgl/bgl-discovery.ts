/**
 * Discovery of a BlueGene/L over its control network (paper 002 §1; spec §1.3 item 1): every place
 * the design's packaging has a node is asked who is there, and every answering node for its six
 * links as link training found them (the far end's serial and port). The packaging names the
 * node — the control network reaches a place, not a route through the torus — and the cabling is
 * then compared with the design: a link whose far end is not where the design puts it is miswired,
 * one the design has but that is down at both ends is missing, a place that does not answer holds
 * an unreachable node; each finding names both ends.
 */
import { bglControlAddress, designTorus, FabricDesign, MaintenanceTransport, MODEL_BGL_NODE, SourceRoute } from '@weft/fabric-model';
import { discoverOverControlNetwork } from '../discovery/control-network-discovery';
import type { KnownFabric } from '../discovery/known-fabric';

/** Each design node's control-network address, in design order. */
export function controlAddresses(design: FabricDesign): SourceRoute[] {
  const torus = designTorus(design);
  return design.chips.map((c) => {
    const [x, y, z] = c.coordinates ?? [0, 0, 0];
    return bglControlAddress(torus, torus.index(x, y, z));
  });
}

export function discoverBgl(transport: MaintenanceTransport, design: FabricDesign): Promise<KnownFabric> {
  return discoverOverControlNetwork(transport, design, controlAddresses(design), {
    identityRegister: 'nodeIdentity',
    model: MODEL_BGL_NODE,
    what: 'a BG/L node',
    called: 'node',
    linksRegister: 'linkStates',
    ports: 6,
  });
}
