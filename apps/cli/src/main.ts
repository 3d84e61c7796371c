// The weft command. Commands that talk to the running service load only what they need to send a
// query (they start in about a tenth of a second); the service's modules, TypeORM and the fabric
// model are loaded by the commands that use them (store-commands.ts, fixture-commands.ts).
import { Command, InvalidArgumentError, Option } from 'commander';
import { readFileSync, writeFileSync } from 'node:fs';
import { Role, StartupError } from '../../fabric-manager/src/public-api';
import { addAnalysisCommands } from './analysis-commands';
import { databaseOption, fabricOption, keyOption, loadList, out, positiveInt, serviceClient, urlOption, wholeNumber } from './cli-options';
import { DrillProgress } from './drill-progress';
import { CliError, ServiceClient } from './graphql-client';
import { formatRouter, ROUTER_CONFIGURATION, RouterConfigurationView } from './router-view';

export function buildProgram(): Command {
  const program = new Command('weft')
    .description('weft: fabric manager for supercomputer interconnects, with a built-in emulated fabric')
    .showHelpAfterError('(run "weft --help" for the commands)')
    .configureHelp({ subcommandTerm: (cmd) => `${cmd.name()} ${cmd.usage()}`.trim() })
    // Errors come back to runCli as exceptions instead of process.exit (set before any
    // subcommand is made, so that they inherit it).
    .exitOverride();

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
      const { migrateStore } = await import('./store-commands');
      const ran = await migrateStore(options.database);
      out(ran.length ? `applied: ${ran.join(', ')}` : 'the store is up to date');
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
      const { createKey } = await import('./store-commands');
      const created = await createKey(options.database, options.name, options.role);
      out(`created ${created.apiKey.role} key #${created.apiKey.id} "${created.apiKey.name}". It is shown only this once:`);
      out(created.key);
    });
  keys
    .command('list')
    .description('list API keys (never the keys themselves)')
    .addOption(databaseOption())
    .action(async (options: { database: string }) => {
      const { listKeys } = await import('./store-commands');
      const rows = await listKeys(options.database);
      for (const k of rows) out(`#${k.id}\t${k.role}\t${k.prefix}\t${k.name}${k.revokedAt ? `\trevoked ${k.revokedAt.toISOString()}` : ''}`);
    });
  keys
    .command('revoke')
    .description('revoke an API key by id')
    .argument('<id>', 'key id, from "weft keys list"', positiveInt)
    .addOption(databaseOption())
    .action(async (id: number, options: { database: string }) => {
      const { revokeKey } = await import('./store-commands');
      await revokeKey(options.database, id);
      out(`revoked key #${id}`);
    });

  const fixtures = program.command('fixtures').description('installation and drill files');
  fixtures
    .command('validate')
    .description('check installation files (summarising each design) and drill files (against the fabric each names)')
    .argument('<files...>', 'installation or drill JSON files')
    .action(async (files: string[]) => {
      const { checkFixtureFile } = await import('./fixture-commands');
      let failed = 0;
      for (const file of files) {
        const check = checkFixtureFile(file);
        if (check.ok) out(`ok  ${file}: ${check.summary}`);
        else {
          failed++;
          process.stderr.write(check.problems.join('\n') + '\n');
        }
      }
      if (failed) throw new CliError(`${failed} of ${files.length} files are invalid`);
    });

  const report = program.command('report').description('reports that need no service');
  report
    .command('cost')
    .description(
      'cost and power of a flattened butterfly against the folded Clos, butterfly and hypercube of as many terminals (paper 003 §4.3, §5.3), with every assumption printed',
    )
    .option('--terminals <n>', "terminals (N), costed by the paper's model for each topology", positiveInt)
    .option('--fixture <file>', 'a flattened butterfly installation file, costed cable by cable, beside the others at its N')
    .option('--radix <ports>', 'ports a router (Table 3: 64)', positiveInt, 64)
    .option('--plot <file.svg>', 'write cost and power per node against N (Fig. 11, Fig. 15) as SVG')
    .option('--json', 'the report as JSON')
    .action(async (options: { terminals?: number; fixture?: string; radix: number; plot?: string; json?: boolean }) => {
      const { costReportCommand } = await import('./report-commands');
      out(await costReportCommand(options));
    });
  report
    .command('topologies')
    .description(
      'the 32-ary 2-flat under CLOS AD against the butterfly, folded Clos and hypercube of 1,024 terminals at equal bisection, run in the emulator (paper 003 §3.3, Table 1, Fig. 6)',
    )
    .addOption(
      new Option('--pattern <kind>', 'uniform random (Fig. 6a), the worst case (Fig. 6b) or both')
        .choices(['uniform-random', 'adversarial', 'both'])
        .default('both'),
    )
    .option('--loads <list>', 'offered loads, fractions of capacity', loadList, [0.1, 0.3, 0.5, 0.7, 0.9])
    .option('--warmup <cycles>', 'cycles before the measured window', wholeNumber, 1000)
    .option('--window <cycles>', 'cycles measured', positiveInt, 2000)
    .option('--seed <n>', 'random seed', wholeNumber, 1)
    .option('--plot <file.svg>', 'write latency against offered load (Fig. 6) as SVG')
    .option('--json', 'the figures as JSON')
    .action(async (options: { pattern: string; loads: number[]; warmup: number; window: number; seed: number; plot?: string; json?: boolean }) => {
      const { topologyReportCommand } = await import('./report-commands');
      out(await topologyReportCommand(options));
    });

  const fabric = program.command('fabric').description('the emulated fabric as a process of its own');
  fabric
    .command('serve')
    .description(
      'host the emulated fabrics in this process and answer managers (WEFT_FABRIC=<address>) over a socket: the fabric keeps running while a manager restarts or fails over',
    )
    .requiredOption('--listen <address>', 'unix:/path/to.sock or tcp:host:port (loopback by default)')
    .option('--threads <n>', "threads a traffic run's independent parts run on", positiveInt, 1)
    .option('--journal <file>', "append each manager's session (term, register writes and when, commands dropped after it was let go) as a JSON line")
    .option('--key-file <file>', 'the key managers must prove (made, readable only by you, where there is none)', 'data/fabric-key')
    .option('--store <database>', "the managers' store (a SQLite file or postgres:// URL): a manager's term must be the one its lease issued")
    .action(async (options: { listen: string; threads: number; journal?: string; keyFile: string; store?: string }) => {
      // Its own module: a dynamic import of '@weft/emulator' itself would not be resolved in the build.
      const { serveFabricCommand } = await import('./fabric-commands');
      await serveFabricCommand(options);
    });

  program
    .command('worker')
    .description(
      "take study points (a sweep's loads) off the job queue and do them, each on an emulated fabric of its own configured from the store, until stopped; run as many as you like, on any machine that reaches the queue and the store",
    )
    .addOption(new Option('--redis <url>', 'the job queue').env('WEFT_REDIS').default('redis://127.0.0.1:6379'))
    .addOption(new Option('--prefix <prefix>', "the queue's key prefix (the manager's WEFT_QUEUE_PREFIX)").env('WEFT_QUEUE_PREFIX').default('weft'))
    .addOption(databaseOption())
    .option('--concurrency <n>', 'points at a time, each in an emulator thread of its own', positiveInt, 1)
    .option(
      '--lock-ms <ms>',
      "how long a point stays this worker's unrenewed: a worker that dies gives its point back after about twice this",
      positiveInt,
      10_000,
    )
    .action(async (options: { redis: string; prefix: string; database: string; concurrency: number; lockMs: number }) => {
      const { workerCommand } = await import('./worker-command');
      await workerCommand(options);
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
          unchanged: boolean;
          findings: { kind: string; message: string }[];
          unreachable: { kind: string; slice: number; processors: string }[];
        };
      }>(
        'mutation($input: FabricIdInput!) { configureFabric(input: $input) { generation { number state } verified violations problems writes unchanged findings { kind message } unreachable { kind slice processors } } }',
        { input: { fabricId: String(fabricId) } },
      );
      const c = data.configureFabric;
      if (c.unchanged) out(`generation ${c.generation.number}: ${c.generation.state}, verified; nothing changed, no new generation: it stays in force`);
      else
        out(`generation ${c.generation.number}: ${c.generation.state}${c.verified ? ', verified' : ', REJECTED by the verifier'}; ${c.writes} register writes`);
      for (const f of c.findings) out(`  finding ${f.kind}: ${f.message}`);
      for (const u of c.unreachable)
        out(u.kind === 'processors' ? `  unreachable in slice ${u.slice}: processors ${u.processors}` : `  unreachable: ${u.processors}`);
      for (const v of c.violations) out(`  violation: ${v}`);
      for (const p of c.problems.slice(0, 20)) out(`  note: ${p}`);
      if (c.problems.length > 20) out(`  … and ${c.problems.length - 20} more notes`);
      if (!c.verified) throw new CliError('the configuration was not proven and was not pushed');
    });
  const faults = program.command('faults').description('cables and routers taken out of service, through the running service');
  faults
    .command('declare')
    .description('take a cable (chip:port, either end) or a router (chip) out of service; waits for the generation routed around it')
    .argument('<fabricId>', 'fabric id', positiveInt)
    .argument('<target>', 'a cable end, e.g. s0.r1.3:40, or a router, e.g. s0.r1.3', cableOrRouter)
    .option('--note <text>', 'why, for the record')
    .option('--no-wait', 'return at once instead of waiting for the automation to push the generation that routes around it')
    .addOption(urlOption())
    .addOption(keyOption())
    .action(async (fabricId: number, target: { chip: string; port?: number }, options: { note?: string; wait: boolean; url: string; key?: string }) => {
      const client = serviceClient(options);
      const { declareFault: f } = await client.request<{ declareFault: { id: string; kind: string } }>(
        'mutation($input: DeclareFaultInput!) { declareFault(input: $input) { id kind } }',
        {
          input: {
            fabricId: String(fabricId),
            kind: target.port === undefined ? 'router' : 'link',
            chip: target.chip,
            ...(target.port === undefined ? {} : { port: target.port }),
            ...(options.note ? { note: options.note } : {}),
          },
        },
      );
      out(`fault #${f.id}: ${target.port === undefined ? `router ${target.chip}` : `the cable on ${target.chip}:${target.port}`} is out of service`);
      if (options.wait) await awaitReaction(client, fabricId, f.id, true);
    });
  faults
    .command('list')
    .description('faults in force on a fabric')
    .argument('<fabricId>', 'fabric id', positiveInt)
    .addOption(urlOption())
    .addOption(keyOption())
    .action(async (fabricId: number, options: { url: string; key?: string }) => {
      const { activeFaults } = await serviceClient(options).request<{
        activeFaults: { id: string; kind: string; chip: string; port: number | null; source: string; declaredAt: string; note: string }[];
      }>('query($input: FabricIdInput!) { activeFaults(input: $input) { id kind chip port source declaredAt note } }', {
        input: { fabricId: String(fabricId) },
      });
      if (activeFaults.length === 0) out('no faults in force');
      for (const f of activeFaults)
        out(`#${f.id}\t${f.kind === 'link' ? `cable ${f.chip}:${f.port}` : `router ${f.chip}`}\t${f.source}\t${f.declaredAt}${f.note ? `\t${f.note}` : ''}`);
    });
  faults
    .command('clear')
    .description('put a cable or router back in service (a fault id from "weft faults list"); waits for the generation that uses it again')
    .argument('<faultId>', 'fault id', positiveInt)
    .option('--no-wait', 'return at once')
    .addOption(urlOption())
    .addOption(keyOption())
    .action(async (id: number, options: { wait: boolean; url: string; key?: string }) => {
      const client = serviceClient(options);
      const { clearFault: f } = await client.request<{ clearFault: { fabricId: string; chip: string; port: number | null } }>(
        'mutation($input: ClearFaultInput!) { clearFault(input: $input) { fabricId chip port } }',
        { input: { id: String(id) } },
      );
      out(`fault #${id} cleared: ${f.port === null ? `router ${f.chip}` : `the cable on ${f.chip}:${f.port}`} is back in service`);
      if (options.wait) await awaitReaction(client, Number(f.fabricId), String(id), false);
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

  addAnalysisCommands(program, routes, config);

  const drill = program.command('drill').description('fault-injection drills, through the running service');
  drill
    .command('run')
    .description('run a drill (a file, or a shipped drill by name) and print its report; exits non-zero when an expectation fails')
    .argument('<drill>', 'a drill JSON file, or the name of one in fixtures/drills (e.g. cable-cut-under-load)')
    .option('--plot <file>', 'also write the throughput/latency plot (SVG) to this file')
    .option('--keep-fabric', 'leave the fabric the drill loads in place afterwards (deleted by default)')
    .addOption(urlOption())
    .addOption(keyOption())
    .action(async (source: string, options: { plot?: string; keepFabric?: boolean; url: string; key?: string }) => {
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
        { input: { ...input, keepFabric: options.keepFabric ?? false } },
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

/** `chip:port` names a cable by one of its ends; a chip name alone, a router. */
function cableOrRouter(value: string): { chip: string; port?: number } {
  const m = /^([\w.-]+?)(?::(\d+))?$/.exec(value);
  if (!m) throw new InvalidArgumentError('must be a cable end (chip:port, e.g. s0.r1.3:40) or a router (e.g. s0.r1.3)');
  return m[2] === undefined ? { chip: m[1] } : { chip: m[1], port: Number(m[2]) };
}

type GenerationRow = { number: number; state: string; faultIds: string[] };

/** How long a fault command waits for the automation's generation before saying it saw none. */
const REACTION_WAIT_MS = 15_000;

/**
 * Waits until the automation has pushed (or refused) the generation that took in a fault's
 * declaration (the first computed with it in force) or its clearing (the first after the last
 * computed with it), and says which generation that was.
 */
async function awaitReaction(client: ServiceClient, fabricId: number, faultId: string, declared: boolean): Promise<void> {
  const until = Date.now() + REACTION_WAIT_MS;
  for (;;) {
    const { generations } = await client.request<{ generations: GenerationRow[] }>(
      'query($input: FabricIdInput!) { generations(input: $input) { number state faultIds } }',
      { input: { fabricId: String(fabricId) } },
    );
    const lastWith = generations.findLastIndex((g) => g.faultIds.includes(faultId));
    if (!declared && lastWith === -1) return; // no generation ever routed around it: none to undo
    const next = declared ? generations[lastWith] : generations[lastWith + 1];
    if (next && next.state !== 'computed' && next.state !== 'pushing') {
      const previous = generations[generations.indexOf(next) - 1];
      out(
        `generation ${next.number} ${next.state === 'pushed' ? 'pushed' : `${next.state}, NOT pushed`}` +
          (previous ? ` ("weft config diff ${previous.number} ${next.number} --fabric ${fabricId}" shows what changed)` : ''),
      );
      if (next.state === 'rejected') throw new CliError(`generation ${next.number} was rejected: ${await rejection(client, fabricId, next.number)}`);
      if (next.state !== 'pushed') throw new CliError(`generation ${next.number} was ${next.state}`);
      return;
    }
    if (Date.now() > until) {
      out(
        next
          ? `generation ${next.number} is still ${next.state} after ${REACTION_WAIT_MS / 1000} s`
          : `no generation has taken it in after ${REACTION_WAIT_MS / 1000} s: is the automation off (WEFT_AUTOMATION)? "weft configure ${fabricId}" does it`,
      );
      return;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Why a generation was rejected, as its GENERATION_REJECTED event says. */
async function rejection(client: ServiceClient, fabricId: number, generation: number): Promise<string> {
  const { events } = await client.request<{ events: { edges: { node: { details: { generation: number; reason: string } } }[] } }>(
    'query($f: ID) { events(fabricId: $f, kinds: [GENERATION_REJECTED], first: 500) { edges { node { details } } } }',
    { f: String(fabricId) },
  );
  return events.edges.map((e) => e.node.details).find((d) => d.generation === generation)?.reason ?? 'its proof failed';
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
    if (error instanceof CliError || error instanceof StartupError) process.stderr.write(`weft: ${error.message}\n`);
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
