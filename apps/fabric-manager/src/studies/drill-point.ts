/**
 * One point of a drill campaign: the drill, its traffic seeded with the point's seed, run by a
 * manager of its own — in memory, with its own embedded emulated fabric, no port — inside the
 * worker, so that the run is the same wherever it is done and shares nothing with the manager
 * whose store holds the campaign. Its report is the point's result.
 */
import { NestFactory } from '@nestjs/core';
import type { DrillFile } from '@weft/emulator';
import { loadWeftConfig } from '../config/weft-config';

export interface DrillPointResult {
  seed: number;
  state: string;
  report: Record<string, unknown> | null;
}

export async function runDrillPoint(drill: DrillFile, seed: number): Promise<DrillPointResult> {
  // Loaded here: the application imports this module's own.
  const [{ AppModule }, { DrillRunnerService }] = await Promise.all([import('../app.module'), import('../drills/drill-runner.service')]);
  const config = loadWeftConfig(
    {},
    {
      WEFT_DATABASE: ':memory:',
      WEFT_DEFAULT_FIXTURE: 'none',
      WEFT_LOG_LEVEL: 'silent',
      WEFT_PRINT_BOOTSTRAP_KEY: 'false',
      WEFT_EMULATOR_THREADS: 0,
      WEFT_REDIS: 'none',
    },
  );
  const app = await NestFactory.create(AppModule.forRoot(config), { logger: false, abortOnError: false });
  await app.init();
  try {
    const { finished } = await app.get(DrillRunnerService).start({ ...drill, traffic: { ...drill.traffic, seed } });
    const run = await finished;
    return { seed, state: run.state, report: run.report };
  } finally {
    await app.close();
  }
}
