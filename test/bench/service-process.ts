/**
 * The built service in a process of its own, as `npm start` runs it, on a fresh store with the
 * default fabric loaded and configured — what the API and console benchmarks measure against.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ServiceProcess {
  readonly child: ChildProcess;
  readonly dir: string;
  readonly url: string;
  /** The admin key the first start saved beside the store. */
  readonly key: string;
}

export async function startServiceProcess(name: string, env: Record<string, string> = {}): Promise<ServiceProcess> {
  const dir = mkdtempSync(join(tmpdir(), `weft-${name}-`));
  const main = join(__dirname, '../../apps/fabric-manager/src/main.js');
  const child = spawn(process.execPath, [...process.execArgv, main], {
    env: { ...process.env, WEFT_DATABASE: join(dir, 'weft.sqlite'), WEFT_PORT: '0', WEFT_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`the service exited with ${code}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const up = /is up: (http:\/\/\S+)\/graphql/.exec(out);
      if (up) resolve(up[1]);
      // Its JSON request log, a line per request, is read and dropped, as a log collector would.
      if (out.length > 1 << 20) out = out.slice(-4096);
    });
  });
  child.removeAllListeners('exit');
  return { child, dir, url, key: readFileSync(join(dir, 'admin-key'), 'utf8').trim() };
}

export async function stopServiceProcess(service: ServiceProcess): Promise<void> {
  const { child, dir } = service;
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGTERM');
  const late = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(late);
  rmSync(dir, { recursive: true, force: true });
}

/** A GraphQL request with the admin key; its data, or an error with the API's. */
export async function serviceQuery<T>(service: ServiceProcess, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const response = await fetch(`${service.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${service.key}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: T; errors?: unknown };
  if (!body.data) throw new Error(JSON.stringify(body.errors));
  return body.data;
}
