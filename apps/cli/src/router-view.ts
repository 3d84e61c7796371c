/** `weft routes show`: a router's configuration as the service decodes it, printed as text. */
import { ranges } from '@weft/control/engine/ranges';

export const ROUTER_CONFIGURATION = `query($input: RouterConfigurationInput!) { routerConfiguration(input: $input) {
  chip generation family outOfService { port designedAs farEnd reason } raw { register target value }
  ... on BlackWidowRouterConfiguration { rank slice downlinks uplinks sidelinks unused
    virtualRouters { tiles processors rootDetect { first second meaning } downRoute { first second meaning } portMap { logical physical }
      table { entry location mask processors ports portCount } hashBits }
    link { laneRetryThreshold forwardProgressTimeoutNs leafForwardProgressTimeoutNs maxPacketLength octantRatesGbps } } } }`;

export interface RouterConfigurationView {
  chip: string;
  generation: number;
  rank: number;
  slice: number;
  downlinks: string;
  uplinks: string;
  sidelinks: string;
  unused: string;
  outOfService: { port: number; designedAs: string; farEnd: string; reason: string }[];
  virtualRouters: {
    tiles: string;
    processors: string;
    rootDetect: { first: number; second: number; meaning: string };
    downRoute: { first: number; second: number; meaning: string };
    portMap: { logical: number; physical: number }[];
    table: { entry: number; location: number; mask: number; processors: string; ports: string; portCount: number }[];
    hashBits: string;
  }[];
  link: {
    laneRetryThreshold: number;
    forwardProgressTimeoutNs: number;
    leafForwardProgressTimeoutNs: number;
    maxPacketLength: number;
    octantRatesGbps: number[];
  };
  raw: { register: string; target: string; value: number[] }[];
}

const hex = (n: number) => `0x${n.toString(16).toUpperCase().padStart(4, '0')}`;

/** Ports out of service, those with one reason on one line: "port 40 (sidelink to s0.r1.4:45): …",
 * "ports 32–35 (4 sidelinks to s0.r1.4): …" (the cables to a dead router are one line). */
export function outOfServiceLines(list: RouterConfigurationView['outOfService']): string[] {
  const byReason = new Map<string, RouterConfigurationView['outOfService']>();
  for (const o of list) byReason.set(o.reason, [...(byReason.get(o.reason) ?? []), o]);
  return [...byReason].map(([reason, ports]) => {
    if (ports.length === 1) return `  out of service: port ${ports[0].port} (${ports[0].designedAs}link to ${ports[0].farEnd}): ${reason}`;
    const roles = new Map<string, number>();
    for (const o of ports) roles.set(o.designedAs, (roles.get(o.designedAs) ?? 0) + 1);
    const farChips = new Set(ports.map((o) => o.farEnd.slice(0, o.farEnd.lastIndexOf(':'))));
    const what = [...roles].map(([role, n]) => `${n} ${role}link${n === 1 ? '' : 's'}`).join(', ');
    return `  out of service: ports ${ranges(ports.map((o) => o.port))} (${what}${farChips.size === 1 ? ` to ${[...farChips][0]}` : ''}): ${reason}`;
  });
}

/** A router's registers as text: the view an operator reads (paper 000 §5 terms). */
export function formatRouter(r: RouterConfigurationView, raw: boolean): string[] {
  const lines = [
    `${r.chip} — rank ${r.rank}, slice ${r.slice}, generation ${r.generation}`,
    `  ports: down ${r.downlinks || '-'} | up ${r.uplinks || '-'} | side ${r.sidelinks || '-'} | unused ${r.unused || '-'}`,
    ...outOfServiceLines(r.outOfService),
    `  link: lane retry threshold ${r.link.laneRetryThreshold}, forward progress ${r.link.forwardProgressTimeoutNs} ns (${r.link.leafForwardProgressTimeoutNs} ns towards processors), max packet ${r.link.maxPacketLength} phits, octants ${r.link.octantRatesGbps.join('/')} Gb/s`,
  ];
  for (const vr of r.virtualRouters) {
    lines.push(`  virtual router, tiles ${vr.tiles}: processors ${vr.processors} below`);
    lines.push(`    root detect ${hex(vr.rootDetect.first)}/${hex(vr.rootDetect.second)}: ${vr.rootDetect.meaning}`);
    lines.push(`    down route s=${vr.downRoute.first} m=${hex(vr.downRoute.second)}: ${vr.downRoute.meaning}`);
    lines.push(`    port map (logical→physical): ${vr.portMap.map((e) => `${e.logical}→${e.physical}`).join(' ') || '-'}`);
    lines.push(`    hash bits: ${vr.hashBits}`);
    if (vr.table.length === 0) lines.push('    routing table: empty (nothing climbs from here)');
    for (const e of vr.table)
      lines.push(`    table[${e.entry}] ${hex(e.location)}/${hex(e.mask)} processors ${e.processors} → ${e.portCount} ports: ${e.ports || 'none (dropped)'}`);
  }
  if (raw) {
    lines.push('  raw register writes:');
    for (const w of r.raw) lines.push(`    ${w.register} (${w.target}) = [${w.value.join(', ')}]`);
  }
  return lines;
}
