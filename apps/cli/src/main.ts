import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { InstallationFileError, loadInstallationFile } from '@weft/fabric-model';
import { Command, InvalidArgumentError, Option } from 'commander';
import { checkDrillTargets, DRILL_FORMAT, DrillFileError, validateDrillFile } from '@weft/emulator';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { AuditService } from '../../fabric-manager/src/audit/audit.service';
import { Role } from '../../fabric-manager/src/auth/api-key.entity';
import { ApiKeysService } from '../../fabric-manager/src/auth/api-keys.service';
import { ConfigError, DEFAULT_DATABASE, loadWeftConfig } from '../../fabric-manager/src/config/weft-config';
import { dataSourceOptions } from '../../fabric-manager/src/database/data-source-options';
import { FIXTURES_ROOT } from '../../fabric-manager/src/fabrics/fabrics.service';
import { adminKeyFile, readAdminKeyFile } from '../../fabric-manager/src/auth/admin-key-file';
import { CliStoreModule } from './cli-store.module';
import { DrillProgress } from './drill-progress';
import { formatRouter, ROUTER_CONFIGURATION, RouterConfigurationView } from './router-view';
import { CliError, ServiceClient } from './graphql-client';

const out = (text: string) => process.stdout.write(`${text}\n`);

function positiveInt(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('must be a positive whole number');
  return Number(value);
}

function storeConfig(database: string | undefined) {
  return loadWeftConfig(process.env, { ...(database ? { WEFT_DATABASE: database } : {}), WEFT_LOG_LEVEL: 'silent' });
}

async function withStore<T>(
  database: string | undefined,
  action: (app: Awaited<ReturnType<typeof NestFactory.createApplicationContext>>) => Promise<T>,
): Promise<T> {
  const app = await NestFactory.createApplicationContext(CliStoreModule.forRoot(storeConfig(database)), { logger: false, abortOnError: false });
  try {
    return await action(app);
  } finally {
    await app.close();
  }
}

/** The key given (--key, WEFT_API_KEY), else the admin key the service saved beside its store at
 * first start (WEFT_DATABASE, ./data/weft.sqlite by default), when this user may read it. */
function serviceClient(options: { url: string; key?: string }): ServiceClient {
  const store = process.env.WEFT_DATABASE || DEFAULT_DATABASE;
  return new ServiceClient(options.url, options.key ?? readAdminKeyFile(store), adminKeyFile(store));
}

export function buildProgram(): Command {
  const program = new Command('weft')
    .description('weft: fabric manager for supercomputer interconnects, with a built-in emulated fabric')
    .showHelpAfterError('(run "weft --help" for the commands)')
    .configureHelp({ subcommandTerm: (cmd) => `${cmd.name()} ${cmd.usage()}`.trim() })
    // Errors come back to runCli as exceptions instead of process.exit (set before any
    // subcommand is made, so that they inherit it).
    .exitOverride();

  const databaseOption = () => new Option('--database <file>', 'SQLite store file').env('WEFT_DATABASE').default(DEFAULT_DATABASE);
  const urlOption = () => new Option('--url <url>', 'the running service').env('WEFT_URL').default('http://127.0.0.1:3000');
  const keyOption = () => new Option('--key <apiKey>', 'API key (operator role for changes)').env('WEFT_API_KEY');

  program
    .command('serve')
    .description('start the service (the same as "npm start"): GraphQL at /graphql, health at /health')
    .action(async () => {
      await import('../../fabric-manager/src/main');
    });

  program
    .command('migrate')
    .description('apply pending schema migrations to the store (the service also does this on start)')
    .addOption(databaseOption())
    .action(async (options: { database: string }) => {
      const ds = new DataSource(dataSourceOptions(storeConfig(options.database).WEFT_DATABASE));
      await ds.initialize();
      const ran = await ds.runMigrations();
      await ds.destroy();
      out(ran.length ? `applied: ${ran.map((m) => m.name).join(', ')}` : 'the store is up to date');
    });

  const keys = program.command('keys').description('API keys (works on the store file directly)');
  keys
    .command('create')
    .description('issue a new API key and print it, once')
    .addOption(new Option('--role <role>', 'what the key may do').choices(Object.values(Role)).makeOptionMandatory())
    .option('--name <name>', 'what the key is for', 'cli-issued')
    .addOption(databaseOption())
    .action(async (options: { role: Role; name: string; database: string }) => {
      if (!/^[\w .@-]{1,100}$/.test(options.name)) throw new CliError('--name may hold 1 to 100 letters, digits, spaces and . _ @ -');
      const created = await withStore(options.database, async (app) => {
        const key = await app.get(ApiKeysService).create(options.name, options.role);
        await app.get(AuditService).record(null, 'keys create', { name: options.name, role: options.role }, 'ok', 'cli');
        return key;
      });
      out(`created ${created.apiKey.role} key #${created.apiKey.id} "${created.apiKey.name}". It is shown only this once:`);
      out(created.key);
    });
  keys
    .command('list')
    .description('list API keys (never the keys themselves)')
    .addOption(databaseOption())
    .action(async (options: { database: string }) => {
      const rows = await withStore(options.database, (app) => app.get(ApiKeysService).list());
      for (const k of rows) out(`#${k.id}\t${k.role}\t${k.prefix}\t${k.name}${k.revokedAt ? `\trevoked ${k.revokedAt.toISOString()}` : ''}`);
    });
  keys
    .command('revoke')
    .description('revoke an API key by id')
    .argument('<id>', 'key id, from "weft keys list"', positiveInt)
    .addOption(databaseOption())
    .action(async (id: number, options: { database: string }) => {
      await withStore(options.database, async (app) => {
        await app.get(ApiKeysService).revoke(id);
        await app.get(AuditService).record(null, 'keys revoke', { id }, 'ok', 'cli');
      });
      out(`revoked key #${id}`);
    });

  const fixtures = program.command('fixtures').description('installation and drill files');
  fixtures
    .command('validate')
    .description('check installation files (summarising each design) and drill files (against the fabric each names)')
    .argument('<files...>', 'installation or drill JSON files')
    .action((files: string[]) => {
      let failed = 0;
      for (const file of files) {
        if (isDrillFile(file)) {
          const problems = checkDrill(file);
          if (problems.length === 0) out(`ok  ${file}: drill`);
          else {
            failed++;
            process.stderr.write(problems.map((p) => `${file}: ${p}`).join('\n') + '\n');
          }
          continue;
        }
        try {
          const installation = loadInstallationFile(file);
          const s = installation.expected.summary;
          const deviations = installation.file.cabling;
          out(
            `ok  ${file}: ${installation.file.name}, ${s.network} with ${s.processors} processors, ${s.routers} routers, ${s.cables} cables` +
              `; cabling deviations: ${deviations.missing.length} missing, ${deviations.miswired.length} miswired, ${deviations.extra.length} extra`,
          );
        } catch (error) {
          if (!(error instanceof InstallationFileError)) throw error;
          failed++;
          process.stderr.write(`${error.message}\n`);
        }
      }
      if (failed) throw new CliError(`${failed} of ${files.length} files are invalid`);
    });

  const fabrics = program.command('fabrics').description('fabrics, through the running service');
  fabrics
    .command('list')
    .description('list fabrics')
    .addOption(urlOption())
    .addOption(keyOption())
    .action(async (options: { url: string; key?: string }) => {
      const data = await serviceClient(options).request<{
        fabrics: { edges: { node: { id: string; name: string; family: string; chipCount: number; linkCount: number; summary: Record<string, unknown> } }[] };
      }>('{ fabrics(first: 500) { edges { node { id name family chipCount linkCount summary } } } }');
      for (const { node } of data.fabrics.edges)
        out(`#${node.id}\t${node.name}\t${node.family} ${String(node.summary.network)}\t${node.chipCount} chips\t${node.linkCount} links`);
    });
  fabrics
    .command('load')
    .description('load an installation: a fixture name (e.g. blackwidow/bw-r1.5-288) or a JSON file path')
    .argument('<fixtureOrFile>')
    .option('--name <name>', "fabric name (default: the installation's)")
    .addOption(urlOption())
    .addOption(keyOption())
    .action(async (source: string, options: { name?: string; url: string; key?: string }) => {
      let input: { installation: string } | { fixture: string };
      if (source.endsWith('.json')) {
        try {
          input = { installation: readFileSync(source, 'utf8') };
        } catch (error) {
          throw new CliError(`cannot read ${source}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : String(error)}`);
        }
      } else input = { fixture: source };
      const data = await serviceClient(options).request<{ loadFabric: { id: string; name: string; chipCount: number; linkCount: number } }>(
        'mutation($input: LoadFabricInput!) { loadFabric(input: $input) { id name chipCount linkCount } }',
        { input: { ...input, ...(options.name ? { name: options.name } : {}) } },
      );
      out(`loaded fabric #${data.loadFabric.id} "${data.loadFabric.name}": ${data.loadFabric.chipCount} chips, ${data.loadFabric.linkCount} links`);
    });
  fabrics
    .command('delete')
    .description('delete a fabric by id')
    .argument('<id>', 'fabric id', positiveInt)
    .addOption(urlOption())
    .addOption(keyOption())
    .action(async (id: number, options: { url: string; key?: string }) => {
      const data = await serviceClient(options).request<{ deleteFabric: { name: string } }>(
        'mutation($input: DeleteFabricInput!) { deleteFabric(input: $input) { name } }',
        { input: { id: String(id) } },
      );
      out(`deleted fabric #${id} "${data.deleteFabric.name}"`);
    });

  const fabricOption = () => new Option('--fabric <id>', 'fabric id').argParser(positiveInt).makeOptionMandatory();
  program
    .command('discover')
    .description('sweep a fabric through its maintenance transport and compare it with the design')
    .argument('<fabricId>', 'fabric id', positiveInt)
    .addOption(urlOption())
    .addOption(keyOption())
    .action(async (fabricId: number, options: { url: string; key?: string }) => {
      const data = await serviceClient(options).request<{
        discoverFabric: { chipsFound: number; cablesFound: number; requests: number; wallMs: number; findings: { kind: string; message: string }[] };
      }>('mutation($input: FabricIdInput!) { discoverFabric(input: $input) { chipsFound cablesFound requests wallMs findings { kind message } } }', {
        input: { fabricId: String(fabricId) },
      });
      const d = data.discoverFabric;
      out(`found ${d.chipsFound} chips and ${d.cablesFound} cables with ${d.requests} maintenance reads in ${d.wallMs} ms`);
      out(d.findings.length === 0 ? 'the fabric is cabled as designed' : `${d.findings.length} findings:`);
      for (const f of d.findings) out(`  ${f.kind}: ${f.message}`);
    });
  program
    .command('configure')
    .description('discover, compute, verify and push a new configuration generation')
    .argument('<fabricId>', 'fabric id', positiveInt)
    .addOption(urlOption())
    .addOption(keyOption())
    .action(async (fabricId: number, options: { url: string; key?: string }) => {
      const data = await serviceClient(options).request<{
        configureFabric: {
          generation: { number: number; state: string };
          verified: boolean;
          violations: string[];
          problems: string[];
          writes: number;
          findings: { kind: string; message: string }[];
          unreachable: { slice: number; processors: string }[];
        };
      }>(
        'mutation($input: FabricIdInput!) { configureFabric(input: $input) { generation { number state } verified violations problems writes findings { kind message } unreachable { slice processors } } }',
        { input: { fabricId: String(fabricId) } },
      );
      const c = data.configureFabric;
      out(`generation ${c.generation.number}: ${c.generation.state}${c.verified ? ', verified' : ', REJECTED by the verifier'}; ${c.writes} register writes`);
      for (const f of c.findings) out(`  finding ${f.kind}: ${f.message}`);
      for (const u of c.unreachable) out(`  unreachable in slice ${u.slice}: processors ${u.processors}`);
      for (const v of c.violations) out(`  violation: ${v}`);
      for (const p of c.problems.slice(0, 20)) out(`  note: ${p}`);
      if (c.problems.length > 20) out(`  … and ${c.problems.length - 20} more notes`);
      if (!c.verified) throw new CliError('the configuration was not proven and was not pushed');
    });
  const routes = program.command('routes').description('routing registers');
  routes
    .command('show')
    .description("show a router's registers, decoded (default: the last pushed generation)")
    .argument('<chip>', 'router name, e.g. s0.r1.3')
    .addOption(fabricOption())
    .option('--generation <n>', 'generation number', positiveInt)
    .option('--raw', 'also print every register write as pushed')
    .addOption(urlOption())
    .addOption(keyOption())
    .action(async (chip: string, options: { fabric: number; generation?: number; raw?: boolean; url: string; key?: string }) => {
      const data = await serviceClient(options).request<{ routerConfiguration: RouterConfigurationView }>(ROUTER_CONFIGURATION, {
        input: { fabricId: String(options.fabric), chip, ...(options.generation ? { generation: options.generation } : {}) },
      });
      for (const line of formatRouter(data.routerConfiguration, options.raw ?? false)) out(line);
    });
  const config = program.command('config').description('configuration generations');
  config
    .command('diff')
    .description('register by register, what changed between two generations')
    .argument('<from>', 'older generation number', positiveInt)
    .argument('<to>', 'newer generation number', positiveInt)
    .addOption(fabricOption())
    .option('--first <n>', 'routers to list', positiveInt, 100)
    .option('--raw', "also print each register's raw values before and after")
    .addOption(urlOption())
    .addOption(keyOption())
    .action(async (from: number, to: number, options: { fabric: number; first: number; raw?: boolean; url: string; key?: string }) => {
      const data = await serviceClient(options).request<{
        generationDiff: {
          changedRouters: number;
          changedRegisters: number;
          routers: { chip: string; changes: { register: string; target: string; before: number[] | null; after: number[] | null; meaning: string }[] }[];
        };
      }>(
        'query($input: GenerationDiffInput!) { generationDiff(input: $input) { changedRouters changedRegisters routers { chip changes { register target before after meaning } } } }',
        { input: { fabricId: String(options.fabric), from, to, first: Math.min(options.first, 500) } },
      );
      const d = data.generationDiff;
      out(`generation ${from} → ${to}: ${d.changedRegisters} register writes differ on ${d.changedRouters} routers`);
      const show = (v: number[] | null) => (v === null ? '(not written)' : `[${v.join(', ')}]`);
      for (const r of d.routers) {
        out(`${r.chip}`);
        for (const c of r.changes) {
          out(`  ${c.register} (${c.target}): ${c.meaning}`);
          if (options.raw) out(`    raw: ${show(c.before)} → ${show(c.after)}`);
        }
      }
      if (d.routers.length < d.changedRouters) out(`… ${d.changedRouters - d.routers.length} more routers (--first)`);
    });

  const drill = program.command('drill').description('fault-injection drills, through the running service');
  drill
    .command('run')
    .description('run a drill (a file, or a shipped drill by name) and print its report; exits non-zero when an expectation fails')
    .argument('<drill>', 'a drill JSON file, or the name of one in fixtures/drills (e.g. cable-cut-under-load)')
    .option('--plot <file>', 'also write the throughput/latency plot (SVG) to this file')
    .addOption(urlOption())
    .addOption(keyOption())
    .action(async (source: string, options: { plot?: string; url: string; key?: string }) => {
      const client = serviceClient(options);
      let input: { drill: string } | { fixture: string };
      if (source.endsWith('.json')) {
        try {
          input = { drill: readFileSync(source, 'utf8') };
        } catch (error) {
          throw new CliError(`cannot read ${source}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : String(error)}`);
        }
      } else input = { fixture: source };
      const started = await client.request<{ startDrill: { id: string; drill: string } }>(
        'mutation($input: StartDrillInput!) { startDrill(input: $input) { id drill } }',
        { input },
      );
      const id = started.startDrill.id;
      process.stderr.write(`drill ${started.startDrill.drill}: run #${id}\n`);
      const progress = new DrillProgress(process.stderr);
      for (;;) {
        const { drillRun: run } = await client.request<{
          drillRun: { state: string; progress: { emulatedNs: number; durationNs: number; step: string } | null; text: string | null; plotSvg: string | null };
        }>('query($id: ID!) { drillRun(id: $id) { state progress { emulatedNs durationNs step } text plotSvg } }', { id });
        if (run.state === 'running') {
          if (run.progress) progress.update(run.progress.emulatedNs, run.progress.durationNs, run.progress.step);
          await new Promise((r) => setTimeout(r, 500));
          continue;
        }
        progress.done();
        if (run.text) out(run.text.trimEnd());
        if (options.plot && run.plotSvg) {
          writeFileSync(options.plot, run.plotSvg);
          out(`plot written to ${options.plot}`);
        }
        if (run.state !== 'passed') throw new CliError(`drill ${run.state}`);
        return;
      }
    });

  program.addHelpText('after', () => {
    const lines: string[] = ['', 'Every command:'];
    const walk = (cmd: Command, prefix: string) => {
      for (const sub of cmd.commands) {
        if (sub.name() === 'help') continue;
        if (sub.commands.length) walk(sub, `${prefix}${sub.name()} `);
        else lines.push(`  weft ${prefix}${sub.name()} ${sub.usage()}`.trimEnd().padEnd(58) + ` ${sub.description()}`);
      }
    };
    walk(program, '');
    return lines.join('\n');
  });
  return program;
}

export async function runCli(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (error) {
    const e = error as { code?: string; exitCode?: number; message?: string };
    if (e.code?.startsWith('commander.'))
      return e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help' ? 0 : (e.exitCode ?? 1);
    if (error instanceof CliError || error instanceof ConfigError) process.stderr.write(`weft: ${error.message}\n`);
    else if (error instanceof Error && error.name === 'AuthException') process.stderr.write(`weft: ${error.message}\n`);
    else process.stderr.write(`weft: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 1;
  }
}

if (require.main === module) {
  void runCli(process.argv).then((code) => {
    if (code !== 0 || !process.argv.includes('serve')) process.exitCode = code;
  });
}

/** A drill file says so in its format field. */
function isDrillFile(file: string): boolean {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { format?: unknown }).format === DRILL_FORMAT;
  } catch {
    return false;
  }
}

/** Every problem with a drill file: its own, then its timeline against the fabric fixture it names. */
function checkDrill(file: string): string[] {
  try {
    const drill = validateDrillFile(JSON.parse(readFileSync(file, 'utf8')));
    const source = join(FIXTURES_ROOT, `${drill.fabric}.json`);
    if (!existsSync(source)) return [`$.fabric: no fixture "${drill.fabric}"`];
    return checkDrillTargets(drill, loadInstallationFile(source).physical);
  } catch (error) {
    if (error instanceof DrillFileError) return [...error.problems];
    if (error instanceof InstallationFileError) return [`$.fabric: ${error.message}`];
    throw error;
  }
}
