import { DrillFile, DrillFileError } from '@weft/emulator';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES_ROOT } from '../config/store-location';
import type { DrillRunnerService } from './drill-runner.service';
import { DrillTargetsError } from './drill-runner.service';
import { DrillsErrorCode, DrillsException } from './drills.exception';

/** The drill an API input names — a shipped one by name, or a drill file as JSON — read (not yet checked). */
export function readDrillInput(input: { fixture?: string; drill?: string }): unknown {
  if ((input.fixture === undefined) === (input.drill === undefined))
    throw new DrillsException(DrillsErrorCode.DrillInvalid, 'give exactly one of "fixture" or "drill"');
  try {
    return JSON.parse(input.drill ?? readFileSync(join(FIXTURES_ROOT, 'drills', `${input.fixture!.replace(/[^a-z0-9-]/gi, '')}.json`), 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new DrillsException(DrillsErrorCode.DrillNotFound, `no shipped drill "${input.fixture}"`);
    throw new DrillsException(DrillsErrorCode.DrillInvalid, `$: the drill is not JSON: ${(error as Error).message}`);
  }
}

/** A drill's problems as the API says them (DRILL_INVALID with every problem), anything else as it is. */
export function drillProblems(error: unknown): unknown {
  if (error instanceof DrillFileError || error instanceof DrillTargetsError) {
    return new DrillsException(DrillsErrorCode.DrillInvalid, `invalid drill: ${error.problems.join('; ')}`, { problems: [...error.problems] });
  }
  return error;
}

/** The drill checked whole and against its fabric, its problems said as the API says them. */
export function checkedDrill(runner: Pick<DrillRunnerService, 'check'>, definition: unknown): DrillFile {
  try {
    return runner.check(definition);
  } catch (error) {
    throw drillProblems(error);
  }
}
