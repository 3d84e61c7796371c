import { readFileSync } from 'node:fs';
import { FABRIC_FAMILY_MODELS } from '../families';
import { CableEnd, CableSpec, ChipSpec, FabricDesign, cableEndKey } from '../fabric-design';
import { InstallationFileError } from './installation-error';
import { InstallationFile, checkInstallationFile } from './installation-file';
import { JsonChecker } from './json-checker';
import { jsonSyntaxError } from './json-syntax';

/** A loaded installation: what the operator intends and what is physically cabled. */
export interface Installation {
  readonly source: string;
  readonly file: InstallationFile;
  /** The design the operator intends; the control plane may know this. */
  readonly expected: FabricDesign;
  /** The cables as they physically are; only the emulator may see this. */
  readonly physical: FabricDesign;
}

/** Largest installation file accepted (the 32K fixture is a few kilobytes: designs are generated). */
export const MAX_INSTALLATION_BYTES = 4 * 1024 * 1024;

/** Reads an installation file; `source` is how errors and the stored fabric name it (the path
 * itself by default; a service names its fixtures without the server's directories). */
export function loadInstallationFile(path: string, source: string = path): Installation {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InstallationFileError(source, [{ path: '$', message: code === 'ENOENT' ? 'no such file' : `cannot be read (${code ?? String(error)})` }]);
  }
  return parseInstallation(text, source);
}

export function parseInstallation(text: string, source: string): Installation {
  if (text.length > MAX_INSTALLATION_BYTES) {
    throw new InstallationFileError(source, [{ path: '$', message: `larger than ${MAX_INSTALLATION_BYTES} bytes` }]);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new InstallationFileError(source, [{ path: '$', message: `not valid JSON: ${jsonErrorWhere(text, error as Error)}` }]);
  }
  const checker = new JsonChecker();
  const file = checkInstallationFile(json, checker);
  if (!file) throw new InstallationFileError(source, checker.issues);
  return buildInstallation(file, source);
}

/** Says where the text stops being JSON, as a line and column an editor can jump to. */
function jsonErrorWhere(text: string, error: Error): string {
  const at = jsonSyntaxError(text);
  return at ? `${at.message} at line ${at.line}, column ${at.column}` : error.message;
}

export function buildInstallation(file: InstallationFile, source: string): Installation {
  const family = FABRIC_FAMILY_MODELS[file.family];
  const expected = family.generateDesign(file.design);
  const checker = new JsonChecker();
  const chips = new Map<string, ChipSpec>();
  for (const chip of expected.chips) chips.set(chip.name, chip);

  const endExists = (end: CableEnd, path: string): boolean => {
    const chip = chips.get(end.chip);
    if (!chip) return !checker.fail(`${path}.chip`, `no chip "${end.chip}" in this ${family.designName(file.design)} design`) && false;
    if (end.port >= chip.portCount) {
      return !checker.fail(`${path}.port`, `chip "${end.chip}" has ports 0 to ${chip.portCount - 1}, got ${end.port}`) && false;
    }
    return true;
  };

  // Cables by either end; a removed or re-landed cable is replaced in place.
  const cables: (CableSpec | undefined)[] = [...expected.cables];
  const byEnd = new Map<string, number>();
  cables.forEach((cable, i) => {
    byEnd.set(cableEndKey(cable!.a), i);
    byEnd.set(cableEndKey(cable!.b), i);
  });
  const touched = new Map<number, string>();
  const designedCable = (end: CableEnd, path: string): number | undefined => {
    if (!endExists(end, path)) return undefined;
    const index = byEnd.get(cableEndKey(end));
    if (index === undefined) return checker.fail(path, `no cable of the design ends at ${end.chip} port ${end.port}`);
    const earlier = touched.get(index);
    if (earlier) return checker.fail(path, `names the same cable as ${earlier}`);
    touched.set(index, path);
    return index;
  };

  file.cabling.missing.forEach((end, i) => {
    const index = designedCable(end, `$.cabling.missing[${i}]`);
    if (index !== undefined) cables[index] = undefined;
  });
  file.cabling.miswired.forEach((m, i) => {
    const path = `$.cabling.miswired[${i}]`;
    const index = designedCable(m.from, `${path}.from`);
    if (index === undefined || !endExists(m.to, `${path}.to`)) return;
    const cable = cables[index]!;
    const fromIsA = cableEndKey(cable.a) === cableEndKey(m.from);
    const designedFar = fromIsA ? cable.b : cable.a;
    if (cableEndKey(designedFar) === cableEndKey(m.to)) {
      checker.fail(`${path}.to`, `is where the design already puts this cable; a miswired cable lands elsewhere`);
      return;
    }
    cables[index] = fromIsA ? { ...cable, b: m.to, cableClass: 'unplanned' } : { ...cable, a: m.to, cableClass: 'unplanned' };
  });
  file.cabling.extra.forEach((x, i) => {
    const path = `$.cabling.extra[${i}]`;
    if (!endExists(x.a, `${path}.a`) || !endExists(x.b, `${path}.b`)) return;
    cables.push({
      a: x.a,
      b: x.b,
      cableClass: 'unplanned',
      lengthMeters: x.lengthMeters,
      ...family.linkFor(x.lengthMeters),
    });
  });

  // Every port takes at most one cable.
  const pathOf = (i: number): string => {
    if (touched.has(i)) return touched.get(i)!;
    if (i >= expected.cables.length) return `$.cabling.extra[${i - expected.cables.length}]`;
    const c = expected.cables[i];
    return `the designed cable ${c.a.chip}:${c.a.port}–${c.b.chip}:${c.b.port}`;
  };
  const used = new Map<string, number>();
  cables.forEach((cable, i) => {
    if (!cable) return;
    for (const end of [cable.a, cable.b]) {
      const key = cableEndKey(end);
      const other = used.get(key);
      if (other !== undefined && other !== i) {
        checker.fail(
          pathOf(i).startsWith('$') ? pathOf(i) : pathOf(other),
          `duplicate cable end: ${end.chip} port ${end.port} is also taken by ${pathOf(i).startsWith('$') ? pathOf(other) : pathOf(i)}`,
        );
      } else if (other === i) {
        checker.fail(pathOf(i), `both ends are ${end.chip} port ${end.port}`);
      }
      used.set(key, i);
    }
  });

  const physicalCables: CableSpec[] = [];
  const physicalIndex = new Map<string, number>();
  for (const cable of cables) {
    if (!cable) continue;
    physicalIndex.set(cableEndKey(cable.a), physicalCables.length);
    physicalIndex.set(cableEndKey(cable.b), physicalCables.length);
    physicalCables.push(cable);
  }
  file.links.forEach((link, i) => {
    const path = `$.links[${i}]`;
    if (!endExists(link.end, path)) return;
    const index = physicalIndex.get(cableEndKey(link.end));
    if (index === undefined) {
      checker.fail(path, `no cable ends at ${link.end.chip} port ${link.end.port}`);
      return;
    }
    const cable = physicalCables[index];
    const lengthMeters = link.lengthMeters ?? cable.lengthMeters;
    // A new length changes the latency the emulator derives from it (a stated latency goes).
    const { latencyNs: _stated, ...rest } = cable;
    physicalCables[index] = {
      ...(link.lengthMeters === undefined ? cable : rest),
      lengthMeters,
      rateGbps: link.rateGbps ?? family.linkFor(lengthMeters).rateGbps,
    };
  });

  const attachmentProblem = family.checkAttachment(expected, file.maintenanceAttachment);
  if (attachmentProblem) checker.fail('$.maintenance.attachment', attachmentProblem);

  if (checker.issues.length > 0) throw new InstallationFileError(source, checker.issues);
  return { source, file, expected, physical: { ...expected, cables: physicalCables } };
}
