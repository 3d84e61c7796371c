import Database from 'better-sqlite3';
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigurationImage, reconcileImage } from '@weft/control';
import { ControlService } from '../../apps/fabric-manager/src/control/control.service';
import { EmulatorService } from '../../apps/fabric-manager/src/emulator/emulator.service';
import { readAdminKeyFile } from '../../apps/fabric-manager/src/auth/admin-key-file';
import { TestService } from './support/test-service';

const root = join(__dirname, '../..');

/** The service in a process of its own (from sources), so that the test can kill it outright. */
async function startServiceProcess(databasePath: string): Promise<{ child: ChildProcess; url: string; key: string; out: string }> {
  const child = spawn(process.execPath, ['-r', join(root, 'scripts/ts-register.js'), join(root, 'apps/fabric-manager/src/main.ts')], {
    env: {
      ...process.env,
      WEFT_DATABASE: databasePath,
      WEFT_PORT: '0',
      WEFT_DEFAULT_FIXTURE: 'none',
      WEFT_LOG_LEVEL: 'silent',
      WEFT_PRINT_BOOTSTRAP_KEY: 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`the service exited with ${code}: ${err}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /is up: (http:\/\/\S+)\/graphql/.exec(out)?.[1];
      // Not a terminal: the first admin key is not printed, only saved beside the store.
      if (url && /saved in \S+admin-key/.test(out)) resolve({ child, url, key: readAdminKeyFile(databasePath)!, out });
    });
  });
}

async function gql<T>(url: string, key: string, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: T; errors?: unknown[] };
  if (!body.data) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

interface PushRow {
  id: number;
  state: string;
  phases: number;
  phasesDone: number;
  generationId: number;
  detail: string;
}

const pushRows = (databasePath: string): PushRow[] => {
  const db = new Database(databasePath, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(`SELECT "id", "state", "phases", "phasesDone", "generationId", "detail" FROM "push" ORDER BY "id"`).all() as PushRow[];
  } finally {
    db.close();
  }
};

/** A push interrupted midway (the process is killed) is finished on restart: store and fabric agree again. */
describe('crash recovery of a push', () => {
  jest.setTimeout(120_000);

  it('finishes on restart a push that was killed midway, by reading the fabric back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-crash-'));
    const databasePath = join(dir, 'weft.sqlite');
    const { child, url, key, out } = await startServiceProcess(databasePath);
    expect(out).not.toMatch(/weft_[a-z0-9]{12}_/);
    child.removeAllListeners('exit');
    const loaded = await gql<{ loadFabric: { id: string } }>(url, key, 'mutation { loadFabric(input: { fixture: "blackwidow/bw-r2-1024" }) { id } }');
    const fabricId = Number(loaded.loadFabric.id);
    // Start the first configuration and kill the service while its push is under way.
    void gql(url, key, 'mutation($input: FabricIdInput!) { configureFabric(input: $input) { writes } }', { input: { fabricId } }).catch(() => undefined);
    let running: PushRow | undefined;
    for (let i = 0; i < 6_000 && !running; i++) {
      await new Promise((r) => setTimeout(r, 5));
      running = pushRows(databasePath).find((p) => p.state === 'running');
    }
    expect(running).toBeDefined();
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    const killed = pushRows(databasePath)[0];
    expect(killed.state).toBe('running');
    expect(killed.phasesDone).toBeLessThan(killed.phases);

    // Restart on the same store: the interrupted push is found and finished.
    const service = await TestService.start({ dir });
    try {
      // Live at once; ready only once the interrupted push is finished.
      expect((await fetch(`${service.url}/health/live`)).status).toBe(200);
      const early = await fetch(`${service.url}/health/ready`);
      expect(early.status).toBe(503);
      expect(await early.json()).toMatchObject({ error: { recovery: { status: 'down' } } });
      await service.app.get(ControlService).recovered;
      expect((await fetch(`${service.url}/health/ready`)).status).toBe(200);
      const [recovered] = pushRows(databasePath);
      expect(recovered).toMatchObject({
        id: killed.id,
        state: 'recovered',
        phasesDone: killed.phases,
        detail: expect.stringMatching(/^after a restart: read back \d+ registers/),
      });
      const generation = await service.gql<{ generations: { number: number; state: string }[] }>(
        'query($input: FabricIdInput!) { generations(input: $input) { number state } }',
        { input: { fabricId } },
        key,
      );
      expect(generation.data!.generations).toEqual([{ number: 1, state: 'pushed' }]);
      // The fabric now holds exactly the stored generation: reading it back finds nothing to rewrite.
      const db = new Database(databasePath, { readonly: true });
      const image = JSON.parse(
        (db.prepare(`SELECT "image" FROM "config_generation" WHERE "id" = ?`).get(killed.generationId) as { image: string }).image,
      ) as ConfigurationImage;
      db.close();
      const check = await reconcileImage(service.app.get(EmulatorService).transport(fabricId), image);
      expect(check).toMatchObject({ rewritten: 0, failures: [] });
      expect(check.checked).toBeGreaterThan(10_000);
    } finally {
      await service.stop();
    }
  });
});
