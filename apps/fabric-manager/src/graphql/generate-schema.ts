/** `npm run schema:generate`: rewrites apps/fabric-manager/schema.gql from the code. */
import 'reflect-metadata';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService } from '../bootstrap';
import { loadWeftConfig } from '../config/weft-config';
import { SCHEMA_FILE, printServiceSchema } from './print-schema';

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-schema-'));
  const config = loadWeftConfig({}, { WEFT_DATABASE: join(dir, 'schema.sqlite'), WEFT_PORT: 0, WEFT_DEFAULT_FIXTURE: 'none', WEFT_LOG_LEVEL: 'silent' });
  const { app } = await startService(config, { logger: false });
  writeFileSync(SCHEMA_FILE, printServiceSchema(app));
  await app.close();
  rmSync(dir, { recursive: true, force: true });
  process.stdout.write(`wrote ${SCHEMA_FILE}\n`);
}

void main();
