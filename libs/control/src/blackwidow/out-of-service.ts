/**
 * Why a router's cabled port carries no traffic in a generation: the fault or the discovery finding
 * that took it out of service (paper 000 §7.7: the routing avoids what is broken). A generation is
 * stored with the faults in force and the sweep's findings it was computed from (its
 * circumstances), so that a port retired long ago still says why, after the fault is cleared.
 */
import type { FabricDesign } from '@weft/fabric-model';
import { PORT_UNUSED, RouterImage } from './blackwidow-engine';
import { GenerationCircumstances, PortOutOfService, whyOutOfService } from '../engine/out-of-service';

const NOT_RECORDED = 'not recorded: this generation was computed before weft kept the faults and findings behind each generation';

/**
 * The ports of `router` that the design cables but the generation's image leaves unused, each with
 * why. `circumstances` null: a generation stored without them. The first that applies: a cable
 * fault at either end, a router fault at the far end, a finding that names the port or the far
 * chip. (A router with a fault of its own has no image: see whyNotConfigured.)
 */
export function portsOutOfService(router: RouterImage, design: FabricDesign, circumstances: GenerationCircumstances | null): PortOutOfService[] {
  const far = new Map<number, { chip: string; port: number }>();
  for (const cable of design.cables) {
    if (cable.a.chip === router.name) far.set(cable.a.port, cable.b);
    else if (cable.b.chip === router.name) far.set(cable.b.port, cable.a);
  }
  const roles = design.chips.find((c) => c.name === router.name)?.portRoles ?? [];
  const out: PortOutOfService[] = [];
  for (const [port, end] of [...far].sort((x, y) => x[0] - y[0])) {
    if (router.portDirection[port] !== PORT_UNUSED) continue;
    const farEnd = `${end.chip}:${end.port}`;
    const why = circumstances ? whyOutOfService(router.name, port, end, circumstances) : { reason: NOT_RECORDED, faultId: null, finding: null };
    out.push({ port, designedAs: roles[port] ?? 'unused', farEnd, ...why });
  }
  return out;
}
