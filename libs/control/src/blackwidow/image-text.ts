/**
 * A BlackWidow configuration image as readable text, and back (OpenSM's `file` routing engine
 * reads routes from such a dump). A golden dump kept beside the fixtures makes any change of the
 * registers a compiler writes show as a line-by-line diff; an operator can read, diff and archive
 * what a generation holds.
 *
 *   weft-image/1 blackwidow
 *   problem <why a router could not be configured as the paper prescribes>      (any number)
 *   router s0.r1.0 serial=2030214379 slice=0 rank=1 route=0
 *     ports down=0-31 up=- side=32-63 unused=-          (§7.7 port directions)
 *     link retries=16 progress=80000 leaf-progress=20000 max-packet=19 octants=6.25,…
 *     vr tiles=0-63 subtree=0-31 root=0x0000/0x001f down=0/0x001f hash=0x00ff
 *       map 7 1 4 0 … - -                               (logical → physical port; - for none)
 *       entry 0 0x0020/0x001f 34-36,38                  (§5.1: location/mask, then the ports)
 *
 * Lists keep their order: `a-b` stands for a run of consecutive numbers going up, `-` alone for
 * an empty list. Loading checks every line and names the first it cannot read.
 */
import type { ConfigurationImage, LinkSettings, RouterImage, TableEntry, VirtualRouterConfig } from './blackwidow-engine';
import { PORT_DOWNLINK, PORT_SIDELINK, PORT_UNUSED, PORT_UPLINK } from './blackwidow-engine';

export const IMAGE_TEXT_FORMAT = 'weft-image/1';

const DIRECTIONS: readonly [string, number][] = [
  ['down', PORT_DOWNLINK],
  ['up', PORT_UPLINK],
  ['side', PORT_SIDELINK],
  ['unused', PORT_UNUSED],
];

export class ImageTextError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
  }
}

/** The image as text (see the file comment). */
export function dumpImage(image: ConfigurationImage): string {
  const lines = [`${IMAGE_TEXT_FORMAT} ${image.family}`];
  for (const problem of image.problems) lines.push(`problem ${problem.replace(/\n/g, ' ')}`);
  for (const r of image.routers) {
    lines.push(`router ${r.name} serial=${r.serial} slice=${r.slice} rank=${r.rank} route=${list(r.route)}`);
    lines.push(`  ports ${DIRECTIONS.map(([name, d]) => `${name}=${list(indicesOf(r.portDirection, d))}`).join(' ')}`);
    const l = r.link;
    lines.push(
      `  link retries=${l.laneRetryThreshold} progress=${l.forwardProgressTimer} leaf-progress=${l.leafForwardProgressTimer} max-packet=${l.maxPacketLength} octants=${l.octantRates.join(',')}`,
    );
    for (const vr of r.virtualRouters) {
      lines.push(
        `  vr tiles=${list(vr.tiles)} subtree=${vr.subtree[0]}-${vr.subtree[1]} root=${hex(vr.rootDetect[0])}/${hex(vr.rootDetect[1])} down=${vr.downRoute[0]}/${hex(vr.downRoute[1])} hash=${hex(vr.hashSelect)}`,
      );
      lines.push(`    map ${vr.portMap.map((p) => (p < 0 ? '-' : String(p))).join(' ')}`);
      vr.table.forEach((e, i) => lines.push(`    entry ${i} ${hex(e.location)}/${hex(e.mask)} ${list(e.ports)}`));
    }
  }
  return lines.join('\n') + '\n';
}

/** The image a dump holds; throws ImageTextError naming the first line it cannot read. */
export function loadImage(text: string): ConfigurationImage {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  let at = 0;
  const fail = (message: string): never => {
    throw new ImageTextError(at + 1, message);
  };
  const header = /^(\S+) (\S+)$/.exec(lines[0] ?? '');
  if (!header || header[1] !== IMAGE_TEXT_FORMAT) fail(`must start with "${IMAGE_TEXT_FORMAT} <family>"`);
  if (header![2] !== 'blackwidow') fail(`family "${header![2]}" has no image format here (blackwidow has)`);
  const problems: string[] = [];
  const routers: RouterImage[] = [];
  for (at = 1; at < lines.length; at++) {
    const line = lines[at];
    if (line.startsWith('problem ')) {
      if (routers.length > 0) fail('problems come before the first router');
      problems.push(line.slice('problem '.length));
      continue;
    }
    if (!line.startsWith('router ')) fail(`expected "router" or "problem", got "${line.slice(0, 40)}"`);
    routers.push(readRouter());
  }
  return { family: 'blackwidow', routers, problems };

  function readRouter(): RouterImage {
    const [, name, fieldsText] = /^router (\S+) (.*)$/.exec(lines[at]) ?? fail('a router line is "router <name> serial= slice= rank= route="');
    const f = fields(fieldsText, ['serial', 'slice', 'rank', 'route']);
    const serial = whole(f.serial, 'serial');
    const slice = whole(f.slice, 'slice');
    const rank = whole(f.rank, 'rank');
    const route = parseList(f.route, 'route');
    at++;
    const ports = /^ {2}ports (.*)$/.exec(lines[at] ?? '') ?? fail(`router ${name}: expected its "  ports" line`);
    const p = fields(
      ports[1],
      DIRECTIONS.map(([n]) => n),
    );
    const portDirection: number[] = [];
    for (const [n, d] of DIRECTIONS)
      for (const port of parseList(p[n], n)) {
        if (portDirection[port] !== undefined) fail(`port ${port} is given two directions`);
        portDirection[port] = d;
      }
    for (let i = 0; i < portDirection.length; i++) if (portDirection[i] === undefined) fail(`port ${i} has no direction`);
    at++;
    const linkLine = /^ {2}link (.*)$/.exec(lines[at] ?? '') ?? fail(`router ${name}: expected its "  link" line`);
    const l = fields(linkLine[1], ['retries', 'progress', 'leaf-progress', 'max-packet', 'octants']);
    const link: LinkSettings = {
      laneRetryThreshold: whole(l.retries, 'retries'),
      forwardProgressTimer: whole(l.progress, 'progress'),
      leafForwardProgressTimer: whole(l['leaf-progress'], 'leaf-progress'),
      maxPacketLength: whole(l['max-packet'], 'max-packet'),
      octantRates: l.octants.split(',').map((x) => {
        const n = Number(x);
        return x !== '' && Number.isFinite(n) ? n : fail(`octants: "${x}" is not a rate`);
      }),
    };
    const virtualRouters: VirtualRouterConfig[] = [];
    while (lines[at + 1]?.startsWith('  vr ')) {
      at++;
      virtualRouters.push(readVirtualRouter());
    }
    return { name, serial, route, slice, rank, portDirection, virtualRouters, link };
  }

  function readVirtualRouter(): VirtualRouterConfig {
    const v = fields(lines[at].slice('  vr '.length), ['tiles', 'subtree', 'root', 'down', 'hash']);
    const subtree = /^(\d+)-(\d+)$/.exec(v.subtree) ?? fail(`subtree "${v.subtree}" is not "first-last"`);
    const root = pair(v.root, 'root');
    const down = /^(\d+)\/(0x[0-9a-f]+)$/.exec(v.down) ?? fail(`down "${v.down}" is not "shift/0xmask"`);
    at++;
    const map = /^ {4}map (.*)$/.exec(lines[at] ?? '') ?? fail('expected the virtual router\'s "    map" line');
    const portMap = map[1].split(' ').map((x) => (x === '-' ? -1 : whole(x, 'map')));
    const table: TableEntry[] = [];
    while (lines[at + 1]?.startsWith('    entry ')) {
      at++;
      const e = /^ {4}entry (\d+) (\S+) (\S+)$/.exec(lines[at]) ?? fail('an entry line is "    entry <index> 0xlocation/0xmask <ports>"');
      if (Number(e[1]) !== table.length) fail(`entry ${e[1]} out of order: entry ${table.length} comes next`);
      const [location, mask] = pair(e[2], 'entry');
      table.push({ location, mask, ports: parseList(e[3], 'ports') });
    }
    return {
      tiles: parseList(v.tiles, 'tiles'),
      subtree: [Number(subtree[1]), Number(subtree[2])],
      rootDetect: root,
      downRoute: [Number(down[1]), parseInt(down[2], 16)],
      portMap,
      table,
      hashSelect: hexNumber(v.hash, 'hash'),
    };
  }

  function fields(text: string, names: readonly string[]): Record<string, string> {
    const out: Record<string, string> = {};
    for (const part of text.split(' ')) {
      const eq = part.indexOf('=');
      if (eq < 0 || !names.includes(part.slice(0, eq))) fail(`"${part}" is not one of ${names.map((n) => `${n}=`).join(' ')}`);
      out[part.slice(0, eq)] = part.slice(eq + 1);
    }
    for (const n of names) if (out[n] === undefined) fail(`${n}= is missing`);
    return out;
  }

  function parseList(text: string, what: string): number[] {
    if (text === '' || text === '-') return [];
    return text.split(',').flatMap((part) => {
      const m = /^(\d+)(?:-(\d+))?$/.exec(part) ?? fail(`${what}: "${part}" is not a number or a run a-b`);
      const from = Number(m[1]);
      const to = m[2] === undefined ? from : Number(m[2]);
      if (to < from) fail(`${what}: the run ${part} goes down`);
      return Array.from({ length: to - from + 1 }, (_, i) => from + i);
    });
  }

  function whole(text: string, what: string): number {
    return /^-?\d+$/.test(text) ? Number(text) : fail(`${what}: "${text}" is not a whole number`);
  }

  function hexNumber(text: string, what: string): number {
    return /^0x[0-9a-f]+$/.test(text) ? parseInt(text, 16) : fail(`${what}: "${text}" is not 0x followed by hex digits`);
  }

  function pair(text: string, what: string): [number, number] {
    const m = /^(0x[0-9a-f]+)\/(0x[0-9a-f]+)$/.exec(text) ?? fail(`${what}: "${text}" is not 0xlocation/0xmask`);
    return [parseInt(m[1], 16), parseInt(m[2], 16)];
  }
}

/** A list in its own order: runs of consecutive numbers going up as a-b, `-` for none. */
function list(values: readonly number[]): string {
  if (values.length === 0) return '-';
  const parts: string[] = [];
  for (let i = 0; i < values.length;) {
    let j = i;
    while (j + 1 < values.length && values[j + 1] === values[j] + 1) j++;
    parts.push(j === i ? `${values[i]}` : `${values[i]}-${values[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

function indicesOf(values: readonly number[], wanted: number): number[] {
  return values.flatMap((v, i) => (v === wanted ? [i] : []));
}

const hex = (n: number) => `0x${n.toString(16).padStart(4, '0')}`;
