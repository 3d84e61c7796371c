import 'reflect-metadata';
import { storeName } from './database/dialect';
import { startService } from './bootstrap';
import { loadWeftConfig, StartupError } from './config/weft-config';

async function main(): Promise<void> {
  const config = loadWeftConfig();
  const started = await startService(config);
  const lines = [
    '',
    `weft fabric manager is up: ${started.url}/graphql  (console: ${started.url}/, health: ${started.url}/health)`,
    `store: ${storeName(config.WEFT_DATABASE)}`,
  ];
  if (started.storeWarning) process.stderr.write(`weft: ${started.storeWarning}\n`);
  if (started.role === 'standby') {
    lines.push(
      `this manager is the STANDBY: another holds the store (see the \`manager\` query); it serves reads, refuses writes, and takes over if the active manager's lease lapses (WEFT_LEASE_MS=${config.WEFT_LEASE_MS})`,
    );
  }
  if (started.defaultFabric) lines.push(`loaded the default fixture into the emulated fabric: ${started.defaultFabric}`);
  if (started.bootstrapKey && config.WEFT_PRINT_BOOTSTRAP_KEY === 'true') {
    lines.push('', 'First start on an empty store: an admin API key was created.');
    if (started.bootstrapKeyFile) lines.push(`It is saved in ${started.bootstrapKeyFile} (readable only by you); the command line uses it from there.`);
    // The key itself only on a terminal: a log collector on stdout keeps everything it is given.
    if (process.stdout.isTTY || !started.bootstrapKeyFile) lines.push('It is shown only this once:', `  ${started.bootstrapKey.key}`);
    lines.push('Send it as "Authorization: Bearer <key>". Make more with: npx weft keys create --role operator');
  }
  process.stdout.write(lines.join('\n') + '\n\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`weft: ${error instanceof StartupError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
