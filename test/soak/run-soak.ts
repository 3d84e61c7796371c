/**
 * `npm run soak [-- options]`: the emulator's soak (libs/emulator/src/testing/soak.ts) over a range
 * of seeds. Each seed runs random traffic through random faults and repairs in several ways that
 * must agree; a line per seed says what it did and whether every check held, and the exit status
 * is 1 if any did not. About a minute for the default 20 seeds; the specs run four.
 *
 * `--family bgl|anton2|flattened-butterfly` runs the other families' soak instead
 * (libs/control/src/testing/family-soak.ts): each seed configured as the service would, through
 * random faults and repairs, run twice.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { soak, SoakOutcome } from '@weft/emulator/testing/soak';
import { familySoak, FamilySoakOutcome, SOAKED_FAMILIES, SoakedFamily } from '@weft/control/testing/family-soak';
import { join } from 'node:path';

const FIXTURES = join(join(__dirname, '../../..').replace(/[\\/]dist$/, ''), 'fixtures');

const MAX_SEEDS = 10_000;

/** Seeds as `1-20`, `3,7,9` or both (`1-5,9`): whole numbers from 0 up. */
export function parseSeeds(text: string): number[] {
  const seeds = new Set<number>();
  for (const part of text.split(',')) {
    const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    if (!match) throw new InvalidArgumentError(`'${part}' is not a seed or a range of seeds (such as 7 or 1-20)`);
    const from = Number(match[1]);
    const to = match[2] === undefined ? from : Number(match[2]);
    if (to < from) throw new InvalidArgumentError(`the range ${part.trim()} runs backwards`);
    if (to - from + 1 + seeds.size > MAX_SEEDS) throw new InvalidArgumentError(`more than ${MAX_SEEDS} seeds`);
    for (let seed = from; seed <= to; seed++) seeds.add(seed);
  }
  return [...seeds];
}

function wholeNumber(name: string, min: number, max: number, step = 1): (text: string) => number {
  return (text) => {
    const n = Number(text);
    if (!(/^\s*\d+\s*$/.test(text) && n >= min && n <= max && n % step === 0))
      throw new InvalidArgumentError(`${name} must be a whole number from ${min} to ${max}${step > 1 ? `, a multiple of ${step}` : ''}: got '${text}'`);
    return n;
  };
}

function describe(o: SoakOutcome): string {
  const discarded = Object.entries(o.books.discarded);
  const discards = discarded.length === 0 ? '' : ` (${discarded.map(([reason, n]) => `${reason} ${n}`).join(', ')})`;
  const total = discarded.reduce((sum, [, n]) => sum + n, 0);
  return (
    `seed ${o.seed}: ${o.processors} processors, ${o.slices} slice${o.slices > 1 ? 's' : ''}, ${o.cycles} cycles; ` +
    `${o.books.created} packets, ${o.books.delivered} delivered, ${total} discarded${discards}; ` +
    `${o.interrupts} interrupts, ${o.retransmissions} retransmissions, ${o.answers} maintenance answers`
  );
}

function describeFamily(o: FamilySoakOutcome): string {
  const discarded = Object.entries(o.books.discarded);
  const discards = discarded.length === 0 ? '' : ` (${discarded.map(([reason, n]) => `${reason} ${n}`).join(', ')})`;
  const total = discarded.reduce((sum, [, n]) => sum + n, 0);
  return (
    `seed ${o.seed}: ${o.fixture}, ${o.cycles} cycles, ${o.faults.length} faults and repairs; ` +
    `${o.books.created} packets${o.copies > 0 ? ` (${o.copies} of them multicast copies)` : ''}, ${o.books.delivered} delivered, ${total} discarded${discards}; ${o.interrupts} interrupts`
  );
}

async function main(): Promise<void> {
  // A bad argument: Commander says which and what is wrong with it, and exits with status 1.
  const program = new Command('npm run soak --')
    .description('Random traffic through random faults on emulated BlackWidow fabrics, each seed run in several ways that must agree')
    .option('--seeds <seeds>', 'seeds to run: 1-20, 3,7,9 or both', parseSeeds, parseSeeds('1-20'))
    .option('--rounds <n>', 'rounds of traffic per seed, each with at most one fault or repair', wholeNumber('--rounds', 1, 1_000), 10)
    .option('--errors', 'bit and soft errors among the faults on every seed (default: on odd seeds)')
    .option('--no-errors', 'no bit or soft errors on any seed')
    .option(
      '--processors <n>',
      'processors of every fabric, a multiple of 32 up to 288 (default: 32, 64 or 96 by seed)',
      wholeNumber('--processors', 32, 288, 32),
    )
    .addOption(new Option('--family <family>', "another family's soak: its fixtures through random faults and repairs").choices(SOAKED_FAMILIES))
    .parse(process.argv);
  const options = program.opts<{ seeds: number[]; rounds: number; errors?: boolean; processors?: number; family?: SoakedFamily }>();
  let failed = 0;
  if (options.family !== undefined) {
    for (const seed of options.seeds) {
      const outcome = await familySoak({ family: options.family, seed, rounds: options.rounds, fixtures: FIXTURES });
      process.stdout.write(`${describeFamily(outcome)} — ${outcome.problems.length === 0 ? 'ok' : 'FAILED'}\n`);
      for (const problem of outcome.problems) process.stdout.write(`    ${problem}\n`);
      if (outcome.problems.length > 0) failed++;
    }
    process.stdout.write(`soak (${options.family}): ${options.seeds.length} seeds, ${failed} failed\n`);
    if (failed > 0) process.exitCode = 1;
    return;
  }
  for (const seed of options.seeds) {
    const outcome = await soak({ seed, rounds: options.rounds, errors: options.errors ?? seed % 2 === 1, processors: options.processors });
    process.stdout.write(`${describe(outcome)} — ${outcome.problems.length === 0 ? 'ok' : 'FAILED'}\n`);
    for (const problem of outcome.problems) process.stdout.write(`    ${problem}\n`);
    if (outcome.problems.length > 0) failed++;
  }
  process.stdout.write(`soak: ${options.seeds.length} seeds, ${failed} failed\n`);
  if (failed > 0) process.exitCode = 1;
}

main().catch((error: Error) => {
  process.stderr.write(`npm run soak: ${error.stack ?? error.message}\n`);
  process.exitCode = 1;
});
