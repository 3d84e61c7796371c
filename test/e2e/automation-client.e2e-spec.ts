import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadInstallationFile } from '@weft/fabric-model';
import { EmulatorService } from '../../apps/fabric-manager/src/emulator/emulator.service';
// The example client shipped in examples/ (see the README), run as an operator would run it.
import { startCableDesk } from '../../examples/cable-desk.mjs';
import { createKey, loadFixture, TestService } from './support/test-service';

/**
 * The example maintenance-controller client: it follows lane decommissions on the event stream,
 * files a cable-replacement record for each and acknowledges the event; stopped and started again,
 * it resumes from its cursor and handles every event exactly once.
 */
describe('the example automation client (examples/cable-desk.mjs)', () => {
  jest.setTimeout(60_000);
  let service: TestService;
  let operator: string;
  let fabricId: string;

  beforeAll(async () => {
    service = await TestService.start();
    operator = await createKey(service, service.bootstrapKey!, 'operator', 'cable-desk');
    fabricId = await loadFixture(service, operator, 'blackwidow/bw-r1.5-288');
    // Discovered and configured: interrupts name their chips from then on.
    await service.gql('mutation($input: FabricIdInput!) { configureFabric(input: $input) { verified } }', { input: { fabricId } }, operator);
  });
  afterAll(() => service.stop());

  /** The R1 port facing processor p0 in `slice` (ground truth: the test picks which lane to make noisy). */
  const portFacingController = (slice: number) => {
    const cable = loadInstallationFile(join(__dirname, '../../fixtures/blackwidow/bw-r1.5-288.json')).physical.cables.find(
      (c) => c.a.chip === 'p0' && c.a.port === slice,
    )!;
    return cable.b;
  };

  /** Makes one lane of the link towards the controller noisy, then sweeps the fabric so that the link carries the answers. */
  const decommissionALane = async (slice: number, lane: number) => {
    const end = portFacingController(slice);
    await service.app.get(EmulatorService).injectFault(Number(fabricId), { action: 'lane-bit-error-rate', chip: end.chip, port: end.port, lane, rate: 0.02 });
    await service.gql('mutation($input: FabricIdInput!) { discoverFabric(input: $input) { chipsFound } }', { input: { fabricId } }, operator);
    await service.app.get(EmulatorService).injectFault(Number(fabricId), { action: 'lane-bit-error-rate', chip: end.chip, port: end.port, lane, rate: 0 });
    return end;
  };

  const until = async (what: string, done: () => boolean) => {
    for (let i = 0; i < 400 && !done(); i++) await new Promise((r) => setTimeout(r, 25));
    if (!done()) throw new Error(`timed out waiting for ${what}`);
  };

  it('files a record for each lane decommissioned and acknowledges it, resuming after a restart without repeats', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cable-desk-'));
    const records = join(dir, 'cable-replacements.jsonl');
    const filed: string[] = [];
    const read = () =>
      readFileSync(records, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { record: string; chip: string; port: number; lane: number });

    let stop = startCableDesk({ url: service.url, key: operator, records, onRecord: (r: string) => filed.push(r) });
    const first = await decommissionALane(0, 1);
    await until('the first record', () => filed.length === 1);
    expect(read()).toEqual([expect.objectContaining({ chip: first.chip, port: first.port, lane: 1 })]);
    await stop();

    // While the desk is down, another lane goes; started again, it catches up with that one only.
    const second = await decommissionALane(2, 0);
    stop = startCableDesk({ url: service.url, key: operator, records, onRecord: (r: string) => filed.push(r) });
    await until('the second record', () => filed.length === 2);
    await new Promise((r) => setTimeout(r, 300));
    await stop();
    expect(read().map((r) => [r.chip, r.port, r.lane])).toEqual([
      [first.chip, first.port, 1],
      [second.chip, second.port, 0],
    ]);

    const acknowledged = await service.gql<{ events: { edges: { node: { acknowledgedBy: string; acknowledgementNote: string } }[] } }>(
      '{ events(kinds: [LANE_DECOMMISSIONED]) { edges { node { acknowledgedBy acknowledgementNote } } } }',
      {},
      operator,
    );
    expect(acknowledged.data!.events.edges.map((e) => e.node)).toEqual(
      filed.map((record) => ({ acknowledgedBy: 'cable-desk', acknowledgementNote: `cable replacement filed: ${record}` })),
    );
  });

  it('two desks on one fabric file each decommission once between them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cable-desks-'));
    const filed: string[] = [];
    const desks = ['a', 'b'].map((name) =>
      startCableDesk({ url: service.url, key: operator, records: join(dir, `${name}.jsonl`), onRecord: (r: string) => filed.push(r) }),
    );
    const before = filed.length;
    await decommissionALane(1, 2);
    await until('a record', () => filed.length > before);
    await new Promise((r) => setTimeout(r, 500));
    await Promise.all(desks.map((stop) => stop()));
    // Both desks replayed the earlier events too (they start without a cursor): each event once.
    expect(new Set(filed).size).toBe(filed.length);
    const ids = ['a', 'b'].flatMap((name) => {
      try {
        return readFileSync(join(dir, `${name}.jsonl`), 'utf8')
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((l) => (JSON.parse(l) as { eventId: string }).eventId);
      } catch {
        return [];
      }
    });
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('run as a program: keeps retrying an unreachable service, saying so, and exits 1 when its key is refused', async () => {
    const run = (url: string, key: string) => {
      const child = spawn(
        process.execPath,
        [join(__dirname, '../../examples/cable-desk.mjs'), '--url', url, '--records', join(mkdtempSync(join(tmpdir(), 'desk-')), 'r.jsonl')],
        {
          env: { ...process.env, WEFT_API_KEY: key },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      return { child, exited, stderr: () => stderr };
    };
    // Port 9 on loopback: nothing listens there.
    const unreachable = run('http://127.0.0.1:9', operator);
    await until('a retry message', () => /cannot reach the weft service at http:\/\/127\.0\.0\.1:9.*; retrying in/.test(unreachable.stderr()));
    expect(unreachable.child.exitCode).toBeNull();
    unreachable.child.kill('SIGTERM');
    await unreachable.exited;

    const refused = run(service.url, `weft_${'a'.repeat(12)}_${'b'.repeat(43)}`);
    expect(await refused.exited).toBe(1);
    expect(refused.stderr()).toContain('cable desk: the service refused the key');
  });
});
