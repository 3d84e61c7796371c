import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, closeSync, mkdirSync, mkdtempSync, openSync, rmSync, statfsSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKey, TestService } from './support/test-service';
import { onPostgres, postgresDatabaseUrl } from './support/weft-processes';

/** Fills the file system at `dir` with one file until it has no room left; its path. */
function fill(dir: string): string {
  const path = join(dir, 'filler');
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  return path;
}

/**
 * Issue 54: with PostgreSQL's disk full, writes were refused as STORE_FULL but readiness said
 * ready. The store's database here lives in a tablespace on a small file system of its own (a
 * tmpfs: the test mounts one, as root, where PostgreSQL runs on this machine), filled to the last
 * byte and emptied again.
 */
describe('a PostgreSQL store whose disk is full', () => {
  jest.setTimeout(120_000);
  const name = `weft_full_${process.pid}`;
  let dir: string;
  let space: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weft-pgfull-'));
    // PostgreSQL's own user passes through it to its tablespace.
    chmodSync(dir, 0o755);
    space = join(dir, 'space');
    mkdirSync(space);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m,mode=0700', 'tmpfs', space]);
    const postgres = Number(execFileSync('id', ['-u', 'postgres']).toString());
    const group = Number(execFileSync('id', ['-g', 'postgres']).toString());
    mkdirSync(join(space, 'pg'));
    chownSync(join(space, 'pg'), postgres, group);
    chownSync(space, postgres, group);
    await onPostgres(`CREATE TABLESPACE "${name}" LOCATION '${join(space, 'pg')}'`);
    await onPostgres(`CREATE DATABASE "${name}" TABLESPACE "${name}"`);
  });
  afterAll(async () => {
    await onPostgres(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => undefined);
    await onPostgres(`DROP TABLESPACE IF EXISTS "${name}"`).catch(() => undefined);
    execFileSync('umount', [space]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('is not ready, refuses writes as STORE_FULL and serves reads; given room again, it is ready', async () => {
    const service = await TestService.start({ config: { WEFT_DATABASE: postgresDatabaseUrl(name) } });
    try {
      const operator = await createKey(service, service.bootstrapKey!, 'operator');
      expect((await fetch(`${service.url}/health/ready`)).status).toBe(200);
      expect(statfsSync(space).bavail).toBeGreaterThan(0);
      const filler = fill(space);
      // Readiness asks the store at most once a second.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const ready = await fetch(`${service.url}/health/ready`);
      expect(ready.status).toBe(503);
      expect(JSON.stringify(await ready.json())).toMatch(/the store .+ is full: its disk has less than 1 MB of room left/);
      const refused = await service.gql('mutation { loadFabric(input: { fixture: "blackwidow/bw-r1.5-288" }) { id } }', {}, operator);
      expect(refused.errors?.[0]).toMatchObject({ extensions: { code: 'STORE_FULL' } });
      expect((await service.gql<{ fabrics: { totalCount: number } }>('{ fabrics { totalCount } }', {}, operator)).data!.fabrics.totalCount).toBe(0);

      unlinkSync(filler);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect((await fetch(`${service.url}/health/ready`)).status).toBe(200);
      const loaded = await service.gql('mutation { loadFabric(input: { fixture: "blackwidow/bw-r1-32" }) { id } }', {}, operator);
      expect(loaded.errors).toBeUndefined();
    } finally {
      await service.stop();
    }
  });
});
