/**
 * Discovery over an out-of-band control network (BG/L's JTAG, Anton 2's): every place the design's
 * packaging has a chip is asked who is there (its identity register: model and serial), and each
 * answering chip for its links as link training found them (three words a port: up, the far end's
 * serial and port). The control network reaches a place, not a route through the fabric, so the
 * place names the chip; the cabling is then compared with the design (match-cabling.ts).
 */
import type { FabricDesign, MaintenanceTransport, SourceRoute } from '@weft/fabric-model';
import type { DiscoveredChip, DiscoveredLink, DiscoveryResult, UnansweredRequest } from './discovery-sweep';
import type { KnownFabric } from './known-fabric';
import { matchCabling } from './match-cabling';

export interface ControlNetworkChip {
  /** The identity register and the model it must show; what the chip is (`a BG/L node`) and what a finding calls one (`node`). */
  readonly identityRegister: string;
  readonly model: number;
  readonly what: string;
  readonly called: string;
  /** The register holding every port's [up, far serial, far port], and the ports a chip has. */
  readonly linksRegister: string;
  readonly ports: number;
}

/** Sweeps `routes` (one per design chip, in design order) and matches what answers with the design. */
export async function discoverOverControlNetwork(
  transport: MaintenanceTransport,
  design: FabricDesign,
  routes: readonly SourceRoute[],
  chip: ControlNetworkChip,
): Promise<KnownFabric> {
  const identities = await transport.readMany(routes, chip.identityRegister, 512);
  const unanswered: UnansweredRequest[] = [];
  const answering: number[] = [];
  const serialAt = new Map<number, number>();
  identities.forEach((result, i) => {
    if (!result.ok) unanswered.push({ route: routes[i], register: chip.identityRegister, reason: result.reason });
    else if (result.value[0] !== chip.model)
      unanswered.push({ route: routes[i], register: chip.identityRegister, reason: `model ${result.value[0]} is not ${chip.what}` });
    else {
      answering.push(i);
      serialAt.set(i, result.value[1]);
    }
  });
  const states = await transport.readMany(
    answering.map((i) => routes[i]),
    chip.linksRegister,
    512,
  );
  const chips: DiscoveredChip[] = [];
  const links: DiscoveredLink[] = [];
  const seen = new Set<string>();
  answering.forEach((i, k) => {
    const state = states[k];
    const serial = serialAt.get(i)!;
    const lanes = new Array<number>(chip.ports).fill(0);
    if (!state.ok) unanswered.push({ route: routes[i], register: chip.linksRegister, reason: state.reason });
    else
      for (let port = 0; port < chip.ports; port++) {
        const [up, farSerial, farPort] = state.value.slice(3 * port, 3 * port + 3);
        if (up !== 1) continue;
        lanes[port] = 1;
        // Each link is seen from both ends: kept once.
        const key = serial < farSerial || (serial === farSerial && port < farPort) ? `${serial}:${port}` : `${farSerial}:${farPort}`;
        if (seen.has(key)) continue;
        seen.add(key);
        links.push({ a: { serial, port }, b: { serial: farSerial, port: farPort }, lanes: 1 });
      }
    chips.push({ serial, kind: 'router', portCount: chip.ports, route: routes[i], slice: 0, lanes });
  });
  const discovered: DiscoveryResult = { chips, links, unanswered, requests: routes.length + answering.length };
  const names = new Map<number, string>();
  for (const i of answering) names.set(serialAt.get(i)!, design.chips[i].name);
  return { discovered, matched: matchCabling(discovered, design, names, chip.called), design, attachment: 'jtag' };
}
