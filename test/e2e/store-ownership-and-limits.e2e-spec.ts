import { StartupError } from '../../apps/fabric-manager/src/config/weft-config';
import { createKey, LOAD_FABRIC, TestService } from './support/test-service';

const FABRICS = '{ fabrics(first: 50) { totalCount edges { node { name } } } }';

/** A store belongs to one service, and a store that cannot grow leaves reads working. */
describe('the store', () => {
  jest.setTimeout(120_000);

  it('a second service on the same store refuses to start, naming the one that owns it; once that one stops, it starts', async () => {
    const first = await TestService.start();
    try {
      await expect(TestService.start({ dir: first.dir })).rejects.toThrow(StartupError);
      await expect(TestService.start({ dir: first.dir })).rejects.toThrow(
        new RegExp(`^the store ${first.databasePath} is in use by another weft service \\(process ${process.pid} on .+\\); stop that service first`),
      );
    } finally {
      await first.stop({ keepFiles: true });
    }
    const second = await TestService.start({ dir: first.dir });
    await second.stop();
  });

  it('a full store keeps reads working, refuses writes as STORE_FULL with nothing half-written, and says so at start', async () => {
    // A store allowed 2 MB: fabrics are loaded until it is full.
    const service = await TestService.start({ config: { WEFT_STORE_MAX_MB: 2 } });
    try {
      const operator = await createKey(service, service.bootstrapKey!, 'operator');
      const viewer = await createKey(service, service.bootstrapKey!, 'viewer');
      let refused: { message: string; extensions: { code: string } } | undefined;
      let loaded = 0;
      for (; loaded < 40 && !refused; loaded++) {
        const before = await service.rowCounts();
        const result = await service.gql(LOAD_FABRIC, { input: { fixture: 'blackwidow/bw-r1.5-288', name: `lab-${loaded}` } }, operator);
        if (result.errors) {
          refused = result.errors[0];
          // Nothing of the refused fabric stayed: no fabric row, no chips, no ports, no event.
          const after = await service.rowCounts();
          expect({ ...after, audit_entry: 0, api_key: 0 }).toEqual({ ...before, audit_entry: 0, api_key: 0 });
        }
      }
      expect(refused).toMatchObject({ extensions: { code: 'STORE_FULL' }, message: expect.stringMatching(/^the store is full: nothing was written/) });
      expect(loaded).toBeGreaterThan(1);

      // Reads work for every key, although no key's use can be recorded now.
      const read = await service.gql<{ fabrics: { totalCount: number } }>(FABRICS, {}, viewer);
      expect(read.errors).toBeUndefined();
      expect(read.data!.fabrics.totalCount).toBe(loaded - 1);
      expect((await fetch(`${service.url}/health/live`)).status).toBe(200);
      // Readiness probes the store at most once a second.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const ready = await fetch(`${service.url}/health/ready`);
      expect(ready.status).toBe(503);
      expect(JSON.stringify(await ready.json())).toContain('is full');

      // Started again on the full store: it says so, and serves reads.
      await service.restart({ WEFT_STORE_MAX_MB: 2 });
      expect(service.storeWarning).toMatch(/^the store .+ is full \(less than 1 MB of room left\): reads work, every write is refused as STORE_FULL/);
      expect((await service.gql(FABRICS, {}, viewer)).errors).toBeUndefined();

      // Given room, the refused load goes through: it was not half-stored (no CONFLICT on its name).
      await service.restart({ WEFT_STORE_MAX_MB: 0 });
      expect(service.storeWarning).toBeNull();
      const retried = await service.gql(LOAD_FABRIC, { input: { fixture: 'blackwidow/bw-r1.5-288', name: `lab-${loaded - 1}` } }, operator);
      expect(retried.errors).toBeUndefined();
      expect((await fetch(`${service.url}/health/ready`)).status).toBe(200);
    } finally {
      await service.stop();
    }
  });
});
