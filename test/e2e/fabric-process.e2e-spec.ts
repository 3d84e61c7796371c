import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestService } from './support/test-service';

const root = join(__dirname, '../..');

/** `weft fabric serve` from the sources, listening on a socket; resolves once it says it serves. */
function serveFabric(address: string, keyFile: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['-r', join(root, 'scripts/ts-register.js'), join(root, 'apps/cli/src/main.ts'), 'fabric', 'serve', '--listen', address, '--key-file', keyFile],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.on('exit', (code) => reject(new Error(`the fabric process exited with ${code}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('weft fabric is serving')) {
        child.removeAllListeners('exit');
        resolve(child);
      }
    });
  });
}

interface Pushed {
  details: { generation: number; recovered?: boolean; checked?: number; writes: number };
}

/**
 * The fabric as a process of its own (issue 40): a manager that stops and starts again beside it
 * finds the fabric as it left it — configured, its clock running on — and reconciles by reading
 * the registers back, rewriting none.
 */
describe('the emulated fabric as a process of its own', () => {
  jest.setTimeout(60_000);
  let dir: string;
  let fabric: ChildProcess;
  let service: TestService;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weft-fabric-'));
    fabric = await serveFabric(`unix:${join(dir, 'fabric.sock')}`, join(dir, 'fabric-key'));
    service = await TestService.start({
      defaultFixture: 'blackwidow/bw-r1-32',
      config: { WEFT_FABRIC: `unix:${join(dir, 'fabric.sock')}`, WEFT_FABRIC_KEY_FILE: join(dir, 'fabric-key') },
    });
  });
  afterAll(async () => {
    await service?.stop();
    fabric?.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  const pushes = async (key: string) =>
    (
      await service.gql<{ events: { edges: { node: Pushed }[] } }>('{ events(kinds: [GENERATION_PUSHED], first: 100) { edges { node { details } } } }', {}, key)
    ).data!.events.edges.map((e) => e.node.details);

  it('configures the fabric through the socket as through the embedded one', async () => {
    const [first] = await pushes(service.bootstrapKey!);
    expect(first).toMatchObject({ generation: 1 });
    expect(first.writes).toBeGreaterThan(100);
  });

  it('keeps the fabric running while the manager restarts; the manager reconciles without rewriting a register', async () => {
    const key = service.bootstrapKey!;
    await service.gql('mutation { declareFault(input: { fabricId: 1, kind: "link", chip: "p3", port: 0 }) { id } }', {}, key);
    for (let i = 0; i < 100 && (await pushes(key)).length < 2; i++) await new Promise((r) => setTimeout(r, 50));
    // The fabric's clock, from the metrics: it runs on across the restart.
    const clock = async () => Number(/weft_emulator_emulated_seconds\{fabric="1"\} (\S+)/.exec(await (await fetch(`${service.url}/metrics`)).text())![1]);
    const before = await clock();
    await service.restart({ WEFT_FABRIC: `unix:${join(dir, 'fabric.sock')}`, WEFT_FABRIC_KEY_FILE: join(dir, 'fabric-key') });
    expect(await clock()).toBeGreaterThanOrEqual(before);
    // Ready without waiting for it (no push was cut off: the fabric process kept the fabric), which
    // is read back in its own queue meanwhile.
    for (let i = 0; i < 200 && (await fetch(`${service.url}/health/ready`)).status !== 200; i++) await new Promise((r) => setTimeout(r, 50));
    expect((await fetch(`${service.url}/health/ready`)).status).toBe(200);
    let after = await pushes(key);
    for (let i = 0; i < 200 && !after[after.length - 1].recovered; i++) {
      await new Promise((r) => setTimeout(r, 50));
      after = await pushes(key);
    }
    const recovered = after[after.length - 1];
    // Read back and found as the last generation left it: every register checked, none written.
    expect(recovered).toMatchObject({ generation: 2, recovered: true, writes: 0 });
    expect(recovered.checked).toBeGreaterThan(100);
  });
});
