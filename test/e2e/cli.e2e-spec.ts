import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../apps/cli/src/main';
import { TestService } from './support/test-service';

/** Runs `weft …` in-process and captures what it prints. */
async function weft(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true));
  const err = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true));
  try {
    const code = await runCli(['node', 'weft', ...args]);
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

describe('the weft command line', () => {
  // Each command is a Node process of its own, and the analyses' scenario runs a dozen of them.
  jest.setTimeout(30_000);
  let service: TestService;
  beforeAll(async () => (service = await TestService.start()));
  afterAll(() => service.stop());

  it('lists every command in --help', async () => {
    const { code, stdout } = await weft('--help');
    expect(code).toBe(0);
    for (const command of [
      'serve',
      'migrate',
      'keys create',
      'keys list',
      'keys revoke',
      'fixtures validate',
      'fabrics list',
      'fabrics load',
      'fabrics delete',
      'discover',
      'configure',
      'faults declare',
      'faults list',
      'faults clear',
      'routes show',
      'routes trace',
      'routes check',
      'load',
      'config diff',
      'config dump',
      'drill run',
    ]) {
      expect(stdout).toContain(`weft ${command}`);
    }
  });

  it('creates a key on the store that the running service then accepts, and loads a fabric with it', async () => {
    const created = await weft('keys', 'create', '--role', 'operator', '--name', 'cli-test', '--database', service.databasePath);
    expect(created.code).toBe(0);
    const key = /weft_[a-z0-9]{12}_\S{43}/.exec(created.stdout)![0];
    const loaded = await weft('fabrics', 'load', 'blackwidow/bw-r1-32', '--url', service.url, '--key', key);
    expect(loaded).toMatchObject({ code: 0, stdout: expect.stringContaining('"bw-r1-32": 36 chips, 128 links') });
    const listed = await weft('fabrics', 'list', '--url', service.url, '--key', key);
    expect(listed.stdout).toMatch(/#\d+\tbw-r1-32\tblackwidow R1\t36 chips\t128 links/);
  });

  it('uses the admin key the service saved beside its store when given none, and says where it looked when there is none', async () => {
    const saved = process.env.WEFT_DATABASE;
    try {
      process.env.WEFT_DATABASE = service.databasePath;
      const listed = await weft('fabrics', 'list', '--url', service.url);
      expect(listed).toMatchObject({ code: 0, stderr: '' });
      process.env.WEFT_DATABASE = join(service.dir, 'elsewhere', 'weft.sqlite');
      const refused = await weft('fabrics', 'list', '--url', service.url);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(
        `an API key is needed: pass --key, set WEFT_API_KEY, or run beside the service's store (${join(service.dir, 'elsewhere', 'admin-key')}`,
      );
    } finally {
      if (saved === undefined) delete process.env.WEFT_DATABASE;
      else process.env.WEFT_DATABASE = saved;
    }
  });

  it('starts a command that talks to the service without loading the service itself', () => {
    // What makes a command start in a tenth of a second rather than in several: it loads neither
    // NestJS nor TypeORM nor the fabric model.
    const root = join(__dirname, '../..');
    const script = `
      require(${JSON.stringify(join(root, 'scripts/ts-register.js'))});
      const { runCli } = require(${JSON.stringify(join(root, 'apps/cli/src/main.ts'))});
      process.stderr.write = () => true;
      runCli(['node', 'weft', 'fabrics', 'list', '--url', 'http://127.0.0.1:9', '--key', 'k']).then((code) => {
        const loaded = Object.keys(require.cache).filter((f) => /node_modules[\\/](@nestjs|typeorm|better-sqlite3|class-validator)[\\/]|libs[\\/](fabric-model|emulator)[\\/]/.test(f));
        console.log(JSON.stringify({ code, loaded }));
      });`;
    const result = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as { code: number; loaded: string[] };
    expect(result).toEqual({ code: 1, loaded: [] });
  });

  it('refuses a role that does not exist, and says which exist', async () => {
    const result = await weft('keys', 'create', '--role', 'boss', '--database', service.databasePath);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("argument 'boss' is invalid. Allowed choices are viewer, operator, admin.");
  });

  it('reports each problem of an invalid installation and exits non-zero', async () => {
    const result = await weft(
      'fixtures',
      'validate',
      join(__dirname, '../../fixtures/blackwidow/bw-r1-32.json'),
      join(__dirname, '../../fixtures/invalid/duplicate-cable-end.json'),
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('ok  ');
    expect(result.stderr).toContain('$.cabling.extra[1]: duplicate cable end: s0.r1.1 port 63 is also taken by $.cabling.extra[0]');
  });

  it('validates the shipped drill files against the fabrics they name', async () => {
    const dir = join(__dirname, '../../fixtures/drills');
    const result = await weft('fixtures', 'validate', join(dir, 'cable-cut-under-load.json'), join(dir, 'router-death.json'));
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout.match(/^ok {2}.*: drill$/gm)).toHaveLength(2);
  });

  it('tells the operator what is wrong with a service call, without a stack trace', async () => {
    const result = await weft('fabrics', 'load', 'blackwidow/none', '--url', service.url, '--key', 'weft_aaaaaaaaaaaa_' + 'z'.repeat(43));
    expect(result).toMatchObject({ code: 1, stderr: 'weft: UNAUTHENTICATED: the API key is not valid\n' });
  });

  it('names a missing installation file instead of failing with a stack trace', async () => {
    const result = await weft('fabrics', 'load', '/nonexistent/lab.json', '--url', service.url, '--key', 'weft_aaaaaaaaaaaa_' + 'z'.repeat(43));
    expect(result).toMatchObject({ code: 1, stderr: 'weft: cannot read /nonexistent/lab.json: no such file\n' });
  });

  it('discovers and configures a fabric, shows a router as the paper describes it, and diffs two generations', async () => {
    const created = await weft('keys', 'create', '--role', 'operator', '--name', 'cli-routes', '--database', service.databasePath);
    const key = /weft_[a-z0-9]{12}_\S{43}/.exec(created.stdout)![0];
    const as = (...args: string[]) => weft(...args, '--url', service.url, '--key', key);
    const loaded = await as('fabrics', 'load', 'blackwidow/bw-r1.5-288', '--name', 'cli-routes');
    const fabric = /#(\d+)/.exec(loaded.stdout)![1];
    expect(await as('discover', fabric)).toMatchObject({ code: 0, stdout: expect.stringContaining('found 324 chips and 1728 cables') });
    expect(await as('configure', fabric)).toMatchObject({ code: 0, stdout: expect.stringMatching(/^generation 1: pushed, verified; \d+ register writes/) });

    // §5.2: a rank-1 router over processors 96–127 has root detect 0x0060/0x001F, down route s=0 m=0x1F.
    const shown = await as('routes', 'show', 's0.r1.3', '--fabric', fabric);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('root detect 0x0060/0x001F: processors 96–127 are below: route them down');
    expect(shown.stdout).toContain('down route s=0 m=0x001F: logical port = (destination >> 0) & 31');
    expect(shown.stdout.match(/ {4}table\[\d\] 0x[0-9A-F]{4}\/0x001F processors \d+–\d+ → 4 ports: /g)).toHaveLength(8);
    expect(shown.stdout).not.toContain('out of service');

    // A cable taken out of service: the automation routes around it at once (generation 2), and
    // an operator's configuration afterwards finds nothing to change and stores no generation.
    const declared = await as('faults', 'declare', fabric, 's0.r1.3:40', '--note', 'cable to be replaced');
    expect(declared).toMatchObject({ code: 0, stderr: '' });
    const faultId = /^fault #(\d+): the cable on s0\.r1\.3:40 is out of service\n/.exec(declared.stdout)![1];
    expect(declared.stdout).toContain(`generation 2 pushed ("weft config diff 1 2 --fabric ${fabric}" shows what changed)`);
    const listed = await as('faults', 'list', fabric);
    expect(listed.stdout).toMatch(new RegExp(`^#${faultId}\tcable s0\\.r1\\.3:40\toperator\t\\S+\tcable to be replaced\n$`));
    expect(await as('configure', fabric)).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^generation 2: pushed, verified; nothing changed, no new generation: it stays in force\n/),
    });
    // Both ends of the cable say why they are unused, and name the other end.
    const retired = await as('routes', 'show', 's0.r1.3', '--fabric', fabric);
    const [line, farChip, farPort] = /\n {2}out of service: port 40 \(sidelink to (s0\.r1\.\d):(\d+)\): .*\n/.exec(retired.stdout)!;
    expect(line).toMatch(
      new RegExp(
        `: cable fault on s0\\.r1\\.3:40 \\(fault #${faultId}, declared by an operator at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC: cable to be replaced\\)\\n$`,
      ),
    );
    expect(retired.stdout.match(/out of service/g)).toHaveLength(1);
    const farEnd = await as('routes', 'show', farChip, '--fabric', fabric);
    expect(farEnd.stdout).toContain(`  out of service: port ${farPort} (sidelink to s0.r1.3:40): cable fault on s0.r1.3:40, the far end (fault #${faultId}`);
    const diff = await as('config', 'diff', '1', '2', '--fabric', fabric);
    expect(diff.code).toBe(0);
    expect(diff.stdout).toMatch(/^generation 1 → 2: \d+ register writes differ on \d+ routers/);
    // In the chip's terms: the port leaves service, and the table entry that used it keeps the others.
    const forRouter = diff.stdout.slice(diff.stdout.indexOf('\ns0.r1.3\n'));
    expect(forRouter).toMatch(/^\ns0\.r1\.3\n {2}portDirections \(ports 0–63\): port 40: sidelink → unused\n/);
    const [, before, after] = /\n {2}routingTable \(tiles 0–63, entry \d\): processors \d+–\d+: ports ([\d–, ]+) → ([\d–, ]+)\n/.exec(forRouter)!;
    expect(before).toMatch(/\b40\b/);
    expect(after).not.toMatch(/\b40\b/);
    const raw = await as('config', 'diff', '1', '2', '--fabric', fabric, '--raw');
    expect(raw.stdout).toMatch(/\n {2}routingTable \(tiles [\d–, ]+, entry \d\): .*\n {4}raw: \[1, \d+, 31, \d+, \d+\] → \[1, \d+, 31, \d+, \d+\]\n/);

    // Back in service: the next generation uses the cable again.
    const cleared = await as('faults', 'clear', faultId);
    expect(cleared).toMatchObject({ code: 0, stderr: '' });
    expect(cleared.stdout).toContain(`fault #${faultId} cleared: the cable on s0.r1.3:40 is back in service\ngeneration 3 pushed`);
    expect((await as('faults', 'list', fabric)).stdout).toBe('no faults in force\n');
    expect((await as('routes', 'show', 's0.r1.3', '--fabric', fabric)).stdout).not.toContain('out of service');

    // A router whose loss the proof cannot route around (the maintenance controller's own R1): the
    // generation is rejected, an alarm with its reason, and the command says so and fails.
    const refused = await as('faults', 'declare', fabric, 's0.r1.0');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^weft: generation 4 was rejected: .+\n$/);
    const alarms = await service.gql<{ events: { edges: { node: { details: { generation: number; reason: string } } }[] } }>(
      'query($f: ID) { events(fabricId: $f, kinds: [GENERATION_REJECTED]) { edges { node { details } } } }',
      { f: fabric },
      key,
    );
    expect(alarms.data!.events.edges.map((e) => e.node.details)).toEqual([
      expect.objectContaining({ generation: 4, reason: refused.stderr.slice('weft: generation 4 was rejected: '.length, -1) }),
    ]);
    await as('faults', 'clear', /^fault #(\d+)/.exec(refused.stdout)![1]);

    const unknown = await as('routes', 'show', 's9.r1.3', '--fabric', fabric);
    expect(unknown).toMatchObject({ code: 1, stderr: `weft: NOT_FOUND: generation 5 of fabric ${fabric} configures no router "s9.r1.3"\n` });
    const missing = await as('config', 'diff', '1', '6', '--fabric', fabric);
    expect(missing).toMatchObject({ code: 1, stderr: `weft: NOT_FOUND: fabric ${fabric} has no generation 6\n` });
  });

  it('traces a route, computes channel loads, proves the routing deadlock-free and dumps the golden image of the configuration in force', async () => {
    const created = await weft('keys', 'create', '--role', 'operator', '--name', 'cli-analyses', '--database', service.databasePath);
    const key = /weft_[a-z0-9]{12}_\S{43}/.exec(created.stdout)![0];
    const as = (...args: string[]) => weft(...args, '--url', service.url, '--key', key);
    const fabric = /#(\d+)/.exec((await as('fabrics', 'load', 'blackwidow/bw-r1.5-288', '--name', 'cli-analyses')).stdout)![1];
    expect((await as('configure', fabric)).code).toBe(0);

    const trace = await as('routes', 'trace', 'p0', 'p287', '--fabric', fabric, '--plane', '1');
    expect(trace).toMatchObject({ code: 0, stderr: '' });
    expect(trace.stdout).toMatch(/^p0 → p287, plane 1, vc 0 \(generation 1\): leaves by p0:1\n {2}1\. s1\.r1\.0 {2}in \d+ → out \d+ {2}vc 0 {2}→ s1\.r/);
    expect(trace.stdout).toMatch(/could take \d+ \(\d+(\.\d)?%\), /);
    expect(trace.stdout).toMatch(/\ndelivered in \d router hops\n$/);

    expect(await as('routes', 'check', '--fabric', fabric)).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('\nacyclic: no routing cycle can deadlock\n'),
    });

    const load = await as('load', 'random-permutation', '--fabric', fabric, '--seed', '3', '--plane', '0', '--top', '3');
    expect(load.code).toBe(0);
    expect(load.stdout).toMatch(/^random-permutation, \d+ flows \(generation 1\): \d+ channels, load max \d\.\d{3}, mean \d\.\d{3}\n/);
    expect(load.stdout.split('busiest channels:\n')[1].trim().split('\n')).toHaveLength(3);
    // A plane that is not a number is refused by the command, saying so.
    expect(await as('load', 'random-permutation', '--fabric', fabric, '--plane', 'x')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("argument 'x' is invalid. must be a whole number"),
    });

    // A matrix file with a negative entry is refused with its row and column.
    const matrixFile = join(service.dir, 'bad-matrix.txt');
    const rows = Array.from({ length: 288 }, (_, s) => Array.from({ length: 288 }, (_, d) => (s === d ? 0 : s === 3 && d === 5 ? -1 : 1)).join(' '));
    writeFileSync(matrixFile, rows.join('\n'));
    expect(await as('load', matrixFile, '--fabric', fabric)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('traffic matrix [3][5] must be a non-negative number'),
    });

    const dump = await as('config', 'dump', '--fabric', fabric, '--chip', 's0.r1.0');
    expect(dump.code).toBe(0);
    expect(dump.stdout).toMatch(/^weft-image\/1 blackwidow\nrouter s0\.r1\.0 serial=\d+ slice=0 rank=1 /);
  });
});
