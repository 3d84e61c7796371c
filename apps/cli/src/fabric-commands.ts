import { appendFileSync } from 'node:fs';
import { ensureFabricKey, parseFabricAddress, serveFabric } from '@weft/emulator';
import { termRefusal } from '../../fabric-manager/src/store-api';
import { out } from './cli-options';
import { CliError } from './graphql-client';

/** `weft fabric serve`: the emulated fabrics as a process of their own, until stopped. */
export async function serveFabricCommand(options: { listen: string; threads: number; journal?: string; keyFile: string; store?: string }): Promise<never> {
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
  let key: Buffer;
  let created: boolean;
  try {
    ({ key, created } = ensureFabricKey(options.keyFile));
  } catch (error) {
    throw new CliError(`--key-file: ${(error as Error).message}`);
  }
  // Read at each hello (a store that cannot be read then refuses the manager, saying why): the
  // fabric process may start before the managers have made the store.
  const store = options.store;
  const served = await serveFabric(options.listen, {
    key,
    verifyTerm: store === undefined ? undefined : (term) => termRefusal(store, term),
    threads: options.threads,
    log: (line) => process.stderr.write(`weft fabric: ${line}\n`),
    journal: journal === undefined ? undefined : (session) => appendFileSync(journal, JSON.stringify(session) + '\n'),
  });
  if (created) out(`the fabric key was made: ${options.keyFile} (readable only by you; managers read it through WEFT_FABRIC_KEY_FILE)`);
  out(`weft fabric is serving at ${options.listen}`);
  const stop = () => void served.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  return new Promise<never>(() => undefined);
}
