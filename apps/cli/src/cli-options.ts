// What the weft command's files share: output, argument parsers, the options every command that
// talks to the service takes, and its client.
import { InvalidArgumentError, Option } from 'commander';
import { adminKeyFile, DEFAULT_DATABASE, readAdminKeyFile } from '../../fabric-manager/src/public-api';
import { ServiceClient } from './graphql-client';

export const out = (text: string) => process.stdout.write(`${text}\n`);

export function positiveInt(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('must be a positive whole number');
  return Number(value);
}

/** A comma-separated list of offered loads, each a fraction of capacity in (0, 1]. */
export function loadList(value: string): number[] {
  const loads = value.split(',').map((v) => v.trim());
  for (const v of loads)
    if (!/^(0?\.\d+|1(\.0*)?)$/.test(v) || Number(v) <= 0)
      throw new InvalidArgumentError(`"${v}": each load must be a fraction of capacity in (0, 1], e.g. 0.1,0.5,0.9`);
  return loads.map(Number);
}

export function wholeNumber(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a whole number (0 or more)');
  return Number(value);
}

/** The key given (--key, WEFT_API_KEY), else the admin key the service saved beside its store at
 * first start (WEFT_DATABASE, ./data/weft.sqlite by default), when this user may read it. */
export function serviceClient(options: { url: string; key?: string }): ServiceClient {
  const store = process.env.WEFT_DATABASE || DEFAULT_DATABASE;
  return new ServiceClient(options.url, options.key ?? readAdminKeyFile(store), adminKeyFile(store));
}

export const databaseOption = () =>
  new Option('--database <store>', 'the store: a SQLite file, or postgres://user@host/database').env('WEFT_DATABASE').default(DEFAULT_DATABASE);
export const urlOption = () => new Option('--url <url>', 'the running service').env('WEFT_URL').default('http://127.0.0.1:3000');
export const keyOption = () => new Option('--key <apiKey>', 'API key (operator role for changes)').env('WEFT_API_KEY');
export const fabricOption = () => new Option('--fabric <id>', 'fabric id').argParser(positiveInt).makeOptionMandatory();
