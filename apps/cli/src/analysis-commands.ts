// The weft commands that ask questions of the configuration in force: route trace, channel load,
// the channel-dependency check, and a generation's golden dump (all through the running service).
import { Command, InvalidArgumentError, Option } from 'commander';
import { existsSync, readFileSync } from 'node:fs';
import { fabricOption, keyOption, out, positiveInt, serviceClient, urlOption, wholeNumber } from './cli-options';
import { CliError } from './graphql-client';

interface Trace {
  generation: number;
  outcome: string;
  reason: string;
  injection: string | null;
  hops: { chip: string; inPort: number; outPort: number; vc: number; farEnd: string; how: string; choices: { port: number; share: number }[] }[];
}

const percent = (share: number) => `${Math.round(share * 1000) / 10}%`;

/** A traffic matrix file: JSON (an array of rows) or whitespace/comma separated rows, one per line. */
function readMatrix(file: string): number[][] {
  const text = readFileSync(file, 'utf8').trim();
  if (text.startsWith('[')) {
    try {
      return JSON.parse(text) as number[][];
    } catch (error) {
      throw new CliError(`${file}: not valid JSON (${(error as Error).message})`);
    }
  }
  return text.split(/\r?\n/).map((line, row) =>
    line
      .trim()
      .split(/[\s,]+/)
      .map((cell, column) => {
        const value = Number(cell);
        if (cell === '' || !Number.isFinite(value)) throw new CliError(`${file}: row ${row}, column ${column}: "${cell}" is not a number`);
        return value;
      }),
  );
}

export function addAnalysisCommands(program: Command, routes: Command, config: Command): void {
  routes
    .command('trace')
    .description('the path a packet takes between two endpoints under the configuration in force, hop by hop (like ibtracert)')
    .argument('<source>', 'sending endpoint, e.g. p0')
    .argument('<destination>', 'receiving endpoint, e.g. p287')
    .addOption(fabricOption())
    .option('--plane <n>', 'plane (BlackWidow: slice)', wholeNumber, 0)
    .option('--vc <n>', 'VC (BlackWidow: 0 requests, 1 responses)', wholeNumber, 0)
    .option('--hash-bits <n>', "the header's optional hash bits (0–32767)", wholeNumber)
    .addOption(urlOption())
    .addOption(keyOption())
    .action(
      async (source: string, destination: string, options: { fabric: number; plane: number; vc: number; hashBits?: number; url: string; key?: string }) => {
        const { routeTrace: t } = await serviceClient(options).request<{ routeTrace: Trace }>(
          'query($input: RouteTraceInput!) { routeTrace(input: $input) { generation outcome reason injection hops { chip inPort outPort vc farEnd how choices { port share } } } }',
          { input: { fabricId: String(options.fabric), source, destination, plane: options.plane, vc: options.vc, hashBits: options.hashBits } },
        );
        out(`${source} → ${destination}, plane ${options.plane}, vc ${options.vc} (generation ${t.generation}): leaves by ${t.injection ?? '—'}`);
        t.hops.forEach((h, i) => {
          const spread = h.choices.length > 1 ? `; could take ${h.choices.map((c) => `${c.port} (${percent(c.share)})`).join(', ')}` : '';
          out(`  ${i + 1}. ${h.chip}  in ${h.inPort} → out ${h.outPort}  vc ${h.vc}  → ${h.farEnd}   ${h.how}${spread}`);
        });
        if (t.outcome === 'delivered') out(`delivered in ${t.hops.length} router hops`);
        else throw new CliError(`dropped: ${t.reason}`);
      },
    );

  routes
    .command('check')
    .description('prove the configuration in force free of channel-dependency cycles (deadlock), or show one cycle')
    .addOption(fabricOption())
    .addOption(urlOption())
    .addOption(keyOption())
    .action(async (options: { fabric: number; url: string; key?: string }) => {
      const { channelDependencies: d } = await serviceClient(options).request<{
        channelDependencies: { generation: number; acyclic: boolean; channels: number; dependencies: number; cycle: string[] | null };
      }>('query($input: ChannelDependenciesInput!) { channelDependencies(input: $input) { generation acyclic channels dependencies cycle } }', {
        input: { fabricId: String(options.fabric) },
      });
      out(`generation ${d.generation}: ${d.dependencies} dependencies between ${d.channels} channel–VC pairs`);
      if (d.acyclic) out('acyclic: no routing cycle can deadlock');
      else throw new CliError(`a cycle: ${d.cycle!.join(' → ')}`);
    });

  program
    .command('load')
    .description('expected channel loads of a named pattern or a traffic-matrix file under the configuration in force')
    .argument(
      '<pattern>',
      'a pattern (uniform-random, random-permutation, bit-complement, transpose, tornado, …) or a matrix file (JSON rows, or one row per line)',
    )
    .addOption(fabricOption())
    .option('--seed <n>', 'seed of a random pattern', wholeNumber, 1)
    .option('--draws <n>', 'draws of a random pattern to average over (1–64)', positiveInt, 1)
    .option('--plane <n...>', 'planes the traffic is offered in (default: all)', (value: string, previous: number[] | undefined) => [
      ...(previous ?? []),
      wholeNumber(value),
    ])
    .option('--top <n>', 'busiest channels to list', positiveInt, 20)
    .addOption(new Option('--crossing <chip:port>', 'also list the flows that cross this channel').argParser(channelEnd))
    .addOption(urlOption())
    .addOption(keyOption())
    .action(
      async (
        pattern: string,
        options: {
          fabric: number;
          seed: number;
          draws: number;
          plane?: number[];
          top: number;
          crossing?: { chip: string; port: number };
          url: string;
          key?: string;
        },
      ) => {
        const planes = options.plane;
        const source = existsSync(pattern) ? { matrix: readMatrix(pattern) } : { pattern };
        const { channelLoad: r } = await serviceClient(options).request<{
          channelLoad: {
            generation: number;
            pattern: string;
            flows: number;
            channels: number;
            maximum: number;
            mean: number;
            undeliverable: number;
            histogram: { from: number; to: number; channels: number }[];
            top: { channel: string; farEnd: string; load: number }[];
            crossing: { source: string; destination: string; plane: number; share: number }[];
          };
        }>(
          'query($input: ChannelLoadInput!) { channelLoad(input: $input) { generation pattern flows channels maximum mean undeliverable histogram { from to channels } top { channel farEnd load } crossing { source destination plane share } } }',
          {
            input: {
              fabricId: String(options.fabric),
              ...source,
              seed: options.seed,
              draws: options.draws,
              planes,
              top: Math.min(options.top, 1000),
              crossing: options.crossing,
            },
          },
        );
        out(`${r.pattern}, ${r.flows} flows (generation ${r.generation}): ${r.channels} channels, load max ${r.maximum.toFixed(3)}, mean ${r.mean.toFixed(3)}`);
        out(
          `  (a fraction of one injection link's rate; the busiest channel saturates when sources inject at ${r.maximum > 0 ? (1 / r.maximum).toFixed(3) : '∞'})`,
        );
        if (r.undeliverable > 0) out(`  undeliverable under this configuration: ${r.undeliverable.toFixed(3)}`);
        out('histogram:');
        for (const bin of r.histogram) out(`  ${bin.from.toFixed(3)}–${bin.to.toFixed(3)}  ${bin.channels}`);
        out('busiest channels:');
        for (const l of r.top) out(`  ${l.channel} → ${l.farEnd}  ${l.load.toFixed(3)}`);
        if (options.crossing) {
          out(`flows crossing ${options.crossing.chip}:${options.crossing.port}:`);
          for (const f of r.crossing) out(`  ${f.source} → ${f.destination}  plane ${f.plane}  ${percent(f.share)}`);
        }
      },
    );

  config
    .command('dump')
    .description("a generation's registers as readable text (its golden form; default: the last pushed)")
    .addOption(fabricOption())
    .option('--generation <n>', 'generation number', positiveInt)
    .option('--chip <name...>', 'only these chips')
    .addOption(urlOption())
    .addOption(keyOption())
    .action(async (options: { fabric: number; generation?: number; chip?: string[]; url: string; key?: string }) => {
      const { generationImage } = await serviceClient(options).request<{ generationImage: { text: string } }>(
        'query($input: GenerationImageInput!) { generationImage(input: $input) { text } }',
        { input: { fabricId: String(options.fabric), generation: options.generation, chips: options.chip } },
      );
      process.stdout.write(generationImage.text);
    });
}

function channelEnd(value: string): { chip: string; port: number } {
  const m = /^([\w.-]+):(\d+)$/.exec(value);
  if (!m) throw new InvalidArgumentError('must be a channel by its sending end, chip:port (e.g. s0.r1.3:40)');
  return { chip: m[1], port: Number(m[2]) };
}
