import { appendFileSync } from 'node:fs';
import { parseFabricAddress, serveFabric } from '@weft/emulator';
import { out } from './cli-options';
import { CliError } from './graphql-client';

/** `weft fabric serve`: the emulated fabrics as a process of their own, until stopped. */
export async function serveFabricCommand(options: { listen: string; threads: number; journal?: string }): Promise<never> {
  try {
    parseFabricAddress(options.listen);
  } catch (error) {
    throw new CliError(`--listen: ${(error as Error).message}`);
  }
  const journal = options.journal;
  if (journal !== undefined) {
    try {
      appendFileSync(journal, '');
    } catch (error) {
      throw new CliError(`--journal: cannot write ${journal}: ${(error as Error).message}`);
    }
  }
  const served = await serveFabric(options.listen, {
    threads: options.threads,
    log: (line) => process.stderr.write(`weft fabric: ${line}\n`),
    journal: journal === undefined ? undefined : (session) => appendFileSync(journal, JSON.stringify(session) + '\n'),
  });
  out(`weft fabric is serving at ${options.listen}`);
  const stop = () => void served.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  return new Promise<never>(() => undefined);
}
