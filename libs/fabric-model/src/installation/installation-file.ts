/**
 * The installation file (`fixtures/*.json`, format `weft-installation/1`): a physical fabric
 * installation and the design its operator intends. See fixtures/README.md for the format.
 */
import { FABRIC_FAMILY_MODELS, FamilyDesignParams } from '../families';
import { CableEnd, FABRIC_FAMILIES, FabricFamily } from '../fabric-design';
import { JsonChecker } from './json-checker';

export const INSTALLATION_FORMAT = 'weft-installation/1';

export interface MiswiredCable {
  /** The designed end that is cabled correctly. */
  readonly from: CableEnd;
  /** Where the other end of that cable actually lands (instead of its designed far end). */
  readonly to: CableEnd;
}

export interface ExtraCable {
  readonly a: CableEnd;
  readonly b: CableEnd;
  readonly lengthMeters: number;
}

export interface LinkOverride {
  readonly end: CableEnd;
  readonly lengthMeters?: number;
  readonly rateGbps?: number;
}

export interface InstallationFile {
  readonly format: typeof INSTALLATION_FORMAT;
  readonly name: string;
  readonly description: string;
  readonly family: FabricFamily;
  readonly design: FamilyDesignParams;
  readonly cabling: {
    readonly missing: readonly CableEnd[];
    readonly miswired: readonly MiswiredCable[];
    readonly extra: readonly ExtraCable[];
  };
  readonly links: readonly LinkOverride[];
  /** The endpoint the maintenance controller is attached to. */
  readonly maintenanceAttachment: string;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const CHIP = /^[a-z0-9][a-z0-9.]*$/;

/** Checks the shape of a parsed installation file and fills in defaults; cabling against the
 * design is checked afterwards, in buildInstallation. */
export function checkInstallationFile(json: unknown, c: JsonChecker): InstallationFile | undefined {
  const root = c.object(json, '$', ['format', 'name', 'description', 'family', 'design', 'cabling', 'links', 'maintenance']);
  if (!root) return undefined;
  if (root.format !== INSTALLATION_FORMAT) c.fail('$.format', `must be "${INSTALLATION_FORMAT}", got ${JSON.stringify(root.format) ?? 'nothing'}`);
  const name = c.string(root.name, '$.name', NAME, 'letters, digits, ".", "_" or "-"');
  const description = root.description === undefined ? '' : c.string(root.description, '$.description');
  const family = c.oneOf(root.family, '$.family', FABRIC_FAMILIES);
  const design = family ? FABRIC_FAMILY_MODELS[family].checkDesign(root.design, c) : undefined;

  const cablingRoot = root.cabling === undefined ? {} : c.object(root.cabling, '$.cabling', ['missing', 'miswired', 'extra']);
  const missing: CableEnd[] = [];
  const miswired: MiswiredCable[] = [];
  const extra: ExtraCable[] = [];
  if (cablingRoot) {
    const list = (key: string) => (cablingRoot[key] === undefined ? [] : (c.array(cablingRoot[key], `$.cabling.${key}`) ?? []));
    list('missing').forEach((v, i) => {
      const end = checkEnd(v, `$.cabling.missing[${i}]`, c);
      if (end) missing.push(end);
    });
    list('miswired').forEach((v, i) => {
      const path = `$.cabling.miswired[${i}]`;
      const o = c.object(v, path, ['from', 'to']);
      if (!o) return;
      const from = checkEnd(o.from, `${path}.from`, c);
      const to = checkEnd(o.to, `${path}.to`, c);
      if (from && to) miswired.push({ from, to });
    });
    list('extra').forEach((v, i) => {
      const path = `$.cabling.extra[${i}]`;
      const o = c.object(v, path, ['a', 'b', 'lengthMeters']);
      if (!o) return;
      const a = checkEnd(o.a, `${path}.a`, c);
      const b = checkEnd(o.b, `${path}.b`, c);
      const lengthMeters = o.lengthMeters === undefined ? 3 : c.number(o.lengthMeters, `${path}.lengthMeters`, 0.1, 100);
      if (a && b && lengthMeters !== undefined) extra.push({ a, b, lengthMeters });
    });
  }

  const links: LinkOverride[] = [];
  if (root.links !== undefined) {
    (c.array(root.links, '$.links') ?? []).forEach((v, i) => {
      const path = `$.links[${i}]`;
      const o = c.object(v, path, ['chip', 'port', 'lengthMeters', 'rateGbps']);
      if (!o) return;
      const end = checkEnd({ chip: o.chip, port: o.port }, path, c);
      const lengthMeters = o.lengthMeters === undefined ? undefined : c.number(o.lengthMeters, `${path}.lengthMeters`, 0.1, 100);
      let rateGbps: number | undefined;
      if (o.rateGbps !== undefined) {
        const rates = family ? FABRIC_FAMILY_MODELS[family].linkRates : [];
        if (family && rates.length === 0) c.fail(`${path}.rateGbps`, `a ${family} link runs at one rate; it cannot be set`);
        else if (typeof o.rateGbps !== 'number' || !rates.includes(o.rateGbps)) {
          c.fail(`${path}.rateGbps`, `must be a SerDes rate (${rates.join(', ')} Gb/s), got ${JSON.stringify(o.rateGbps)}`);
        } else rateGbps = o.rateGbps;
      }
      if (end) links.push({ end, lengthMeters, rateGbps });
    });
  }

  const defaultAttachment = family ? FABRIC_FAMILY_MODELS[family].defaultAttachment : 'p0';
  let maintenanceAttachment = defaultAttachment;
  if (root.maintenance !== undefined) {
    const m = c.object(root.maintenance, '$.maintenance', ['attachment']);
    if (m && m.attachment !== undefined) maintenanceAttachment = c.string(m.attachment, '$.maintenance.attachment', CHIP, 'a chip name') ?? defaultAttachment;
  }

  if (c.issues.length > 0 || !name || description === undefined || !family || !design) return undefined;
  return {
    format: INSTALLATION_FORMAT,
    name,
    description,
    family,
    design,
    cabling: { missing, miswired, extra },
    links,
    maintenanceAttachment,
  };
}

function checkEnd(value: unknown, path: string, c: JsonChecker): CableEnd | undefined {
  const o = c.object(value, path, ['chip', 'port']);
  if (!o) return undefined;
  const chip = c.string(o.chip, `${path}.chip`, CHIP, 'a chip name such as "s0.r1.3" or "p17"');
  const port = c.integer(o.port, `${path}.port`, 0, 63);
  return chip !== undefined && port !== undefined ? { chip, port } : undefined;
}
