// `weft fixtures validate`: checks installation and drill files offline. Loaded only for that command.
import { checkDrillTargets, DRILL_FORMAT, DrillFileError, validateDrillFile } from '@weft/emulator';
import { ANTON2_FLOORPLAN_FORMAT, FABRIC_FAMILY_MODELS, InstallationFileError, loadAnton2Floorplan, loadInstallationFile } from '@weft/fabric-model';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES_ROOT } from '../../fabric-manager/src/public-api';

/** What a file checked out as: a one-line summary, or every problem found in it. */
export type FileCheck = { ok: true; summary: string } | { ok: false; problems: string[] };

export function checkFixtureFile(file: string): FileCheck {
  if (isDrillFile(file)) {
    const problems = checkDrill(file);
    return problems.length === 0 ? { ok: true, summary: 'drill' } : { ok: false, problems: problems.map((p) => `${file}: ${p}`) };
  }
  try {
    if (formatOf(file) === ANTON2_FLOORPLAN_FORMAT) {
      const plan = loadAnton2Floorplan(file);
      return {
        ok: true,
        summary: `Anton 2 floorplan: ${plan.channelRouter.length} channel adapters and ${plan.endpointRouter.length} endpoint adapters on ${plan.routers.length} routers`,
      };
    }
    const installation = loadInstallationFile(file);
    const s = installation.expected.summary;
    const deviations = installation.file.cabling;
    const shape =
      s.processors !== undefined
        ? `${s.network} with ${s.processors} processors, ${s.routers} routers`
        : `${FABRIC_FAMILY_MODELS[installation.expected.family].designName(installation.file.design)} of ${installation.expected.chips.length} chips`;
    return {
      ok: true,
      summary:
        `${installation.file.name}, ${shape}, ${installation.expected.cables.length} cables and traces` +
        `; cabling deviations: ${deviations.missing.length} missing, ${deviations.miswired.length} miswired, ${deviations.extra.length} extra`,
    };
  } catch (error) {
    if (!(error instanceof InstallationFileError)) throw error;
    return { ok: false, problems: [error.message] };
  }
}

/** A file's format field (drill files and floorplans say what they are there); undefined when it has none or is not JSON. */
function formatOf(file: string): unknown {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { format?: unknown }).format;
  } catch {
    return undefined;
  }
}

function isDrillFile(file: string): boolean {
  return formatOf(file) === DRILL_FORMAT;
}

/** Every problem with a drill file: its own, then its timeline against the fabric fixture it names. */
function checkDrill(file: string): string[] {
  try {
    const drill = validateDrillFile(JSON.parse(readFileSync(file, 'utf8')));
    const source = join(FIXTURES_ROOT, `${drill.fabric}.json`);
    if (!existsSync(source)) return [`$.fabric: no fixture "${drill.fabric}"`];
    return checkDrillTargets(drill, loadInstallationFile(source).physical);
  } catch (error) {
    if (error instanceof DrillFileError) return [...error.problems];
    if (error instanceof InstallationFileError) return [`$.fabric: ${error.message}`];
    throw error;
  }
}
