/**
 * `npm run digests [-- --write]`: digests of what the emulator and the control plane do, packet by
 * packet, that hold a refactoring of either to "nothing changed" (issue 35: BlackWidow moved onto
 * the frame of chip models and routing engines with nothing lost).
 *
 * - Soak seeds 1–12 (libs/emulator/src/testing/soak.ts): random traffic through random faults and
 *   repairs with maintenance reads in flight, on 32–96 processors and one or two slices, each seed
 *   also checked against the every-stage-every-cycle reference and a repeat; the digest is of every
 *   packet's delivery cycle, every interrupt, the books.
 * - A fixture per size (bw-r1-32, bw-r1.5-288, bw-r2-1024, bw-r2.5-4608): discovered through the maintenance
 *   transport, configured by the BlackWidow routing engine, pushed, then a seeded batch of uniform
 *   random traffic on every slice, drained: the same digest, so that a change to discovery, the
 *   engine, the push or the emulator that moves one packet by one cycle shows.
 *
 * - A fixture per size of BlueGene/L, Anton 2 and the flattened butterfly (family-digests.ts):
 *   configured and pushed by the family's routing engine, then a seeded batch of traffic through
 *   noise, a cable cut, a router's death and the cable's repair (issue 56: held before each
 *   family moves onto the shared engine); and Anton 2's own sources on 8×8×8, the path its ASICs
 *   run apart in lookahead windows on.
 *
 * `npm run digests -- <name fragment>` runs only the digests whose name holds it.
 *
 * Compared with test/digest/baseline.json (exit status 1 on any difference); `--write` records the
 * baseline anew.
 */
import { configureBlackWidow, discoverFabric, executePlan, matchDesign, planPush } from '@weft/control';
import type { KnownFabric } from '@weft/control';
import { EmulatedFabric, FLAG_HASH, runUntilSettled, YarcFabricSim, YarcMaintenanceController } from '@weft/emulator';
import { digestOf, recordRun } from '@weft/emulator/testing/reference-runs';
import { soak } from '@weft/emulator/testing/soak';
import { loadInstallationFile, mulberry32 } from '@weft/fabric-model';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { anton2SteadyDigest, FAMILY_FIXTURES, familyFixtureDigest } from './family-digests';

const ROOT = join(__dirname, '../../..').replace(/[\\/]dist$/, '');
const BASELINE = join(ROOT, 'test/digest/baseline.json');
const SOAK_SEEDS = Array.from({ length: 12 }, (_, i) => i + 1);
const FIXTURES = ['bw-r1-32', 'bw-r1.5-288', 'bw-r2-1024', 'bw-r2.5-4608'];
/** Packets injected per processor and slice in a fixture's batch. */
const PACKETS_PER_SOURCE = 6;

async function fixtureDigest(name: string): Promise<{ digest: string; packets: number; cycles: number }> {
  const installation = loadInstallationFile(join(ROOT, 'fixtures/blackwidow', `${name}.json`));
  const sim = new YarcFabricSim(new EmulatedFabric(installation.physical));
  // Attached where the installation says, reaching each slice through one of its ports (as the service does).
  const attachment = installation.file.maintenanceAttachment;
  const controller = new YarcMaintenanceController(sim, sim.fabric.portBase[sim.fabric.chipId(attachment)]);
  const roles = installation.expected.chips.find((c) => c.name === attachment)!.portRoles;
  const controllerPorts = roles.map((_, i) => i).filter((i) => roles[i] !== 'unused');
  const slices = Number(installation.expected.summary.slices);
  const discovered = await runUntilSettled(sim, discoverFabric(controller, { controllerPorts }), 1e9, 2_000);
  const known: KnownFabric = { discovered, matched: matchDesign(discovered, installation.expected), design: installation.expected, attachment };
  const { image } = configureBlackWidow(known);
  const pushed = await runUntilSettled(sim, executePlan(controller, planPush(null, image)), 1e9, 2_000);
  if (pushed.failures.length > 0) throw new Error(`${name}: the push failed: ${JSON.stringify(pushed.failures[0])}`);
  const processors = Number(installation.expected.summary.processors);
  const random = mulberry32(processors * 31 + slices);
  let packets = 0;
  const record = recordRun(sim, (s) => {
    let tag = 1;
    for (let round = 0; round < PACKETS_PER_SOURCE; round++) {
      for (let source = 0; source < processors; source++) {
        for (let slice = 0; slice < slices; slice++) {
          let destination = Math.floor(random() * (processors - 1));
          if (destination >= source) destination++;
          s.inject(source, slice, destination, [4, 8, 19][Math.floor(random() * 3)], random() < 0.5 ? 0 : 1, FLAG_HASH, Math.floor(random() * 0x8000), tag++);
          packets++;
        }
      }
      s.run(200);
    }
    s.drain(5_000_000);
  });
  if (!record.books.balanced || record.books.inFlight !== 0) throw new Error(`${name}: the books after the drain are ${JSON.stringify(record.books)}`);
  return { digest: digestOf(record), packets, cycles: sim.cycle };
}

async function main(): Promise<void> {
  const write = process.argv.includes('--write');
  const only = process.argv.slice(2).find((a) => !a.startsWith('--'));
  const wanted = (name: string) => only === undefined || name.includes(only);
  const digests: Record<string, string> = {};
  for (const seed of SOAK_SEEDS) {
    if (!wanted(`soak seed ${seed}`)) continue;
    const outcome = await soak({ seed, rounds: 8, errors: true });
    if (outcome.problems.length > 0) throw new Error(`soak seed ${seed}: ${outcome.problems.join('; ')}`);
    digests[`soak seed ${seed}`] = outcome.digest;
    process.stderr.write(`soak seed ${seed}: ${outcome.digest}\n`);
  }
  for (const name of FIXTURES) {
    if (!wanted(`fixture ${name}`)) continue;
    const started = performance.now();
    const { digest, packets, cycles } = await fixtureDigest(name);
    digests[`fixture ${name}`] = digest;
    process.stderr.write(
      `fixture ${name}: ${digest} (${packets} packets, drained at cycle ${cycles}, ${((performance.now() - started) / 1000).toFixed(1)} s)\n`,
    );
  }
  for (const fixture of FAMILY_FIXTURES) {
    const name = `fixture ${fixture.file.replace(/^.*\//, '').replace(/\.json$/, '')}`;
    if (!wanted(name)) continue;
    const started = performance.now();
    const { digest, packets, cycles } = await familyFixtureDigest(ROOT, fixture);
    digests[name] = digest;
    process.stderr.write(
      `${name}: ${digest} (${packets} packets delivered, ended at cycle ${cycles}, ${((performance.now() - started) / 1000).toFixed(1)} s)\n`,
    );
  }
  if (wanted('anton2 steady 8x8x8')) {
    const started = performance.now();
    const { digest, packets, cycles } = anton2SteadyDigest();
    digests['anton2 steady 8x8x8'] = digest;
    process.stderr.write(
      `anton2 steady 8x8x8: ${digest} (${packets} packets, ended at cycle ${cycles}, ${((performance.now() - started) / 1000).toFixed(1)} s)\n`,
    );
  }
  const baseline = existsSync(BASELINE) ? (JSON.parse(readFileSync(BASELINE, 'utf8')) as Record<string, string>) : {};
  if (Object.keys(digests).length === 0) throw new Error(`no digest's name holds "${only}" (the names: ${Object.keys(baseline).join(', ')})`);
  if (write) {
    // Those not run keep their recorded digests.
    writeFileSync(BASELINE, JSON.stringify({ ...baseline, ...digests }, null, 2) + '\n');
    process.stdout.write(`wrote ${BASELINE}\n`);
    return;
  }
  const differing = Object.keys(only === undefined ? { ...baseline, ...digests } : digests).filter((k) => baseline[k] !== digests[k]);
  for (const k of differing) process.stdout.write(`DIFFERS  ${k}: ${digests[k] ?? '(not run)'} against the baseline's ${baseline[k] ?? '(none)'}\n`);
  process.stdout.write(differing.length === 0 ? `all ${Object.keys(digests).length} digests equal the baseline\n` : '');
  if (differing.length > 0) process.exitCode = 1;
}

void main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
