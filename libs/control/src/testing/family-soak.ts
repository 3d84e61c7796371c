/**
 * The soak of BlueGene/L, Anton 2 and the flattened butterfly (`npm run soak -- --family bgl`; a
 * short one runs with the system specs): issue 56's soak subject per chip, through the host's
 * interface to each (its hosted engine, its maintenance controller, its traffic runner), so that it
 * holds the families to the emulator's promises before and after they move onto the shared engine.
 *
 * A fixture of the family is configured as the service would (hosted-fabric.ts) — on Anton 2 with
 * a few random multicast groups, to which their sources send half their packets (§2.3: a copy to
 * every destination endpoint, made in the adapters) — then rounds of
 * seeded traffic batches — random patterns, sizes and packet counts — each with a fault or repair
 * landing at a random cycle while the batch runs: a router killed or revived, a cable cut or
 * mended, noise on a cable or taken off (not on the flattened butterfly's idealised channels). A
 * revived router comes back unconfigured and is reconciled, as the service does. At the end every
 * fault is repaired, the image reconciled and one more batch sent, which must arrive whole.
 *
 * What must hold, whatever happens:
 * - every packet made — and every multicast copy — is delivered or discarded exactly once, and
 *   nothing else is (each packet's outcome is followed by its id from the send or copy that made it);
 * - the books balance after every round, with nothing in flight once a batch has finished;
 * - nothing is discarded before the first fault, nor in the final batch on the repaired fabric;
 * - each batch finishes (no packet is stuck);
 * - the same seed run again is the same run, packet for packet (its digest).
 */
import { runUntilSettled } from '@weft/emulator';
import type { HostedEngine, PhysicalFault } from '@weft/emulator';
import { ANTON2_ENDPOINT_ADAPTERS, FABRIC_FAMILY_MODELS, loadInstallationFile, mulberry32 } from '@weft/fabric-model';
import type { FabricFamily, PatternSpec } from '@weft/fabric-model';
import { createHash } from 'node:crypto';
import { hostedFabric, SETTLE_CYCLES } from './hosted-fabric';

/** The families this soak runs (BlackWidow has its own: @weft/emulator testing/soak.ts). */
export const SOAKED_FAMILIES = ['bgl', 'anton2', 'flattened-butterfly'] as const;
export type SoakedFamily = (typeof SOAKED_FAMILIES)[number];

/** Per family: the fixtures a seed picks from, packet sizes (phits as the family counts them), and whether its cables can be noisy. */
const FAMILY_SETTINGS: Record<
  SoakedFamily,
  { readonly fixtures: readonly string[]; readonly sizes: readonly number[]; readonly noisy: boolean; readonly faultWithin: number }
> = {
  bgl: { fixtures: ['bgl/bgl-midplane-512.json', 'bgl/bgl-4x4x4-cabling-faults.json'], sizes: [32, 64, 128, 256], noisy: true, faultWithin: 2_000 },
  anton2: { fixtures: ['anton2/anton2-4x4x1-16.json', 'anton2/anton2-8x8x8-512.json'], sizes: [1, 2], noisy: true, faultWithin: 600 },
  // Single-flit packets: a batch is over in tens of cycles.
  'flattened-butterfly': {
    fixtures: ['flattened-butterfly/fb-32ary-2flat-1024.json', 'flattened-butterfly/fb-32ary-2flat-1024-redundant.json'],
    sizes: [1],
    noisy: false,
    faultWithin: 60,
  },
};

const PATTERNS: readonly PatternSpec[] = [{ kind: 'uniform-random' }, { kind: 'bit-complement' }, { kind: 'random-permutation' }, { kind: 'tornado' }];
/** A batch that has not finished in this many cycles has packets stuck in it. */
const BATCH_LIMIT = 2_000_000;

export interface FamilySoakCase {
  readonly family: SoakedFamily;
  readonly seed: number;
  /** Rounds of traffic, each with one fault or repair. */
  readonly rounds: number;
  /** Where the fixtures are (the repository's fixtures/ folder). */
  readonly fixtures: string;
  /** A fixture of the family's (its path under fixtures/); by default one by seed. */
  readonly fixture?: string;
}

export interface FamilySoakOutcome {
  readonly family: SoakedFamily;
  readonly seed: number;
  readonly fixture: string;
  readonly books: ReturnType<HostedEngine['books']>;
  readonly interrupts: number;
  /** Multicast copies made (Anton 2). */
  readonly copies: number;
  readonly faults: readonly string[];
  readonly cycles: number;
  /** Every check that failed, each line naming it; empty when all held. */
  readonly problems: string[];
  readonly digest: string;
}

/** Runs every check on one seed: the run, and the same run again. */
export async function familySoak(c: FamilySoakCase): Promise<FamilySoakOutcome> {
  const fixture = c.fixture ?? FAMILY_SETTINGS[c.family].fixtures[c.seed % FAMILY_SETTINGS[c.family].fixtures.length];
  const first = await soakRun(c, fixture);
  const again = await soakRun(c, fixture);
  const problems = [...first.problems];
  if (again.digest !== first.digest) problems.push(`repeat: the same seed ran differently the second time (digest ${again.digest} against ${first.digest})`);
  return { ...first, problems };
}

/** The simulator behind a hosted engine of these families, as far as the soak follows packets. */
interface FollowedSim {
  send: (...args: never[]) => number;
  onDeliver: ((p: number, cycle: number, ...rest: never[]) => void) | undefined;
  onDiscard: ((p: number, reason: string, chip: number, port: number) => void) | undefined;
  /** Anton 2: a multicast copy made of a packet (the copy's id). */
  onCopy?: (p: number) => void;
}

/**
 * Follows every packet from the send that made it to its one outcome: the send is wrapped on the
 * simulator, and the outcome hooks each time a traffic session has set them.
 */
class PacketFollower {
  private readonly alive = new Set<number>();
  /** Outcomes reported inside a send, before it returned the packet's id (a source that is dead). */
  private resolvedInSend: number[] | null = null;
  readonly deliveries: string[] = [];
  readonly discards = new Map<string, number>();
  readonly problems: string[] = [];

  constructor(
    private readonly sim: FollowedSim,
    cycle: () => number,
  ) {
    this.follow(cycle);
    const send = sim.send.bind(sim) as (...args: unknown[]) => number;
    sim.send = ((...args: unknown[]) => {
      const outer = this.resolvedInSend;
      this.resolvedInSend = [];
      const id = send(...args);
      const resolved = this.resolvedInSend;
      this.resolvedInSend = outer;
      if (!resolved.includes(id)) this.alive.add(id);
      return id;
    }) as FollowedSim['send'];
  }

  get inFlight(): number {
    return this.alive.size;
  }

  /**
   * Stands in front of the simulator's outcome hooks for good: whatever a traffic session sets them
   * to is called after the follower has seen the outcome (a batch sends, and a multicast copies,
   * while its session is being made, before the caller could wrap what it set).
   */
  private follow(cycle: () => number): void {
    const sim = this.sim as unknown as Record<'onDeliver' | 'onDiscard' | 'onCopy', unknown>;
    const hooks: Record<'onDeliver' | 'onDiscard' | 'onCopy', ((...args: never[]) => void) | undefined> = {
      onDeliver: this.sim.onDeliver,
      onDiscard: this.sim.onDiscard,
      onCopy: this.sim.onCopy,
    };
    const front = {
      onDeliver: (p: number, at: number, ...rest: never[]) => {
        this.outcome(p, 'delivered', cycle());
        this.deliveries.push(`${p}@${at}`);
        hooks.onDeliver?.(p as never, at as never, ...rest);
      },
      onDiscard: (p: number, reason: string, chip: number, port: number) => {
        this.outcome(p, `discarded (${reason})`, cycle());
        this.discards.set(reason, (this.discards.get(reason) ?? 0) + 1);
        hooks.onDiscard?.(p as never, reason as never, chip as never, port as never);
      },
      onCopy: (p: number) => {
        if (this.alive.has(p) && this.problems.length < 20)
          this.problems.push(`cycle ${cycle()}: a multicast copy took the id of packet ${p}, still in flight`);
        this.alive.add(p);
        this.copies++;
        hooks.onCopy?.(p as never);
      },
    };
    for (const name of ['onDeliver', 'onDiscard', 'onCopy'] as const)
      Object.defineProperty(sim, name, {
        configurable: true,
        get: () => front[name],
        set: (hook: ((...args: never[]) => void) | undefined) => (hooks[name] = hook),
      });
  }

  /** Multicast copies made. */
  copies = 0;

  private outcome(p: number, what: string, cycle: number): void {
    if (this.alive.delete(p)) return;
    if (this.resolvedInSend !== null) this.resolvedInSend.push(p);
    else if (this.problems.length < 20)
      this.problems.push(`cycle ${cycle}: packet ${p} ${what}, but it is not in flight (already delivered or discarded, or never made)`);
  }
}

async function soakRun(c: FamilySoakCase, fixture: string): Promise<Omit<FamilySoakOutcome, 'problems'> & { problems: string[] }> {
  const settings = FAMILY_SETTINGS[c.family];
  const path = `${c.fixtures}/${fixture}`;
  const groups =
    c.family === 'anton2'
      ? multicastGroups(
          loadInstallationFile(path).expected.chips.map((chip) => chip.name),
          c.seed,
        )
      : undefined;
  const setup = await hostedFabric(path, c.seed, groups && { multicastGroups: groups });
  if (setup.family !== (c.family as FabricFamily)) throw new Error(`${fixture} is a ${setup.family} fabric, not ${c.family}`);
  const { hosted, fabric, installation } = setup;
  const sim = (hosted as unknown as { sim: FollowedSim }).sim;
  const follower = new PacketFollower(sim, () => hosted.cycle);
  const problems: string[] = [];
  const random = mulberry32(c.seed * 7919 + 17);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const shape = FABRIC_FAMILY_MODELS[setup.family].trafficShape(installation.physical.summary);

  const routers = fabric.design.chips.filter((chip) => chip.kind === 'router').map((chip) => chip.name);
  /** Every cable between two routers, once, by one end. */
  const cables: { chip: string; port: number }[] = [];
  for (const name of routers) {
    const id = fabric.chipId(name);
    for (let g = fabric.portBase[id]; g < fabric.portBase[id + 1]; g++) {
      const peer = fabric.peer[g];
      if (peer > g && fabric.design.chips[fabric.portOwner(peer)].kind === 'router') cables.push({ chip: name, port: g - fabric.portBase[id] });
    }
  }
  const dead = new Set<string>();
  const cut = new Set<number>();
  const noisy = new Set<number>();
  const faults: string[] = [];
  let faulted = false;

  const nextFault = (): PhysicalFault => {
    const choices: (() => PhysicalFault | null)[] = [
      () => {
        const chip = pick(routers);
        return dead.has(chip) ? null : (dead.add(chip), { action: 'kill-router', chip });
      },
      () => {
        if (dead.size === 0) return null;
        const chip = pick([...dead]);
        dead.delete(chip);
        return { action: 'revive-router', chip };
      },
      () => {
        const k = Math.floor(random() * cables.length);
        return cut.has(k) ? null : (cut.add(k), { action: 'cut-link', ...cables[k] });
      },
      () => {
        if (cut.size === 0) return null;
        const k = pick([...cut]);
        cut.delete(k);
        return { action: 'restore-link', ...cables[k] };
      },
      ...(settings.noisy
        ? [
            () => {
              const k = Math.floor(random() * cables.length);
              noisy.add(k);
              return { action: 'lane-bit-error-rate' as const, ...cables[k], lane: 0, rate: pick([1e-4, 1e-3]) };
            },
            () => {
              if (noisy.size === 0) return null;
              const k = pick([...noisy]);
              noisy.delete(k);
              return { action: 'lane-bit-error-rate' as const, ...cables[k], lane: 0, rate: 0 };
            },
          ]
        : []),
    ];
    for (;;) {
      const fault = pick(choices)();
      if (fault) return fault;
    }
  };

  /** One seeded batch; `fault` lands `faultAt` cycles in (or not at all). Returns whether it finished. */
  const batch = async (round: number, fault: PhysicalFault | null, faultAt: number): Promise<void> => {
    const request = {
      mode: 'batch' as const,
      pattern: round < 0 ? { kind: 'uniform-random' as const } : pick(PATTERNS),
      packetPhits: pick(settings.sizes),
      slices: [0],
      seed: c.seed * 1000 + round + 1,
      packets: 1 + Math.floor(random() * 4),
      limit: BATCH_LIMIT,
      ...(groups && { multicast: { fraction: 0.5, groups: groups.map((g) => ({ group: g.group, source: fabric.chipId(g.source) })) } }),
    };
    const session = hosted.startTraffic(request, shape);
    const start = hosted.cycle;
    const discardedBefore = total(hosted.books().discarded);
    if (fault) {
      while (!session.finished && hosted.cycle < start + faultAt) session.advance(Math.min(500, start + faultAt - hosted.cycle));
      hosted.applyFault(fault);
      faults.push(`${hosted.cycle}: ${describeFault(fault)}`);
      faulted = true;
      // A revived router answers unconfigured: the service reconciles it, with its traffic running on.
      if (fault.action === 'revive-router') {
        const report = await runUntilSettled(hosted, setup.entry.reconcile(setup.controller, setup.image), SETTLE_CYCLES);
        // Routers still dead do not answer: only the living must take the image.
        const failures = report.failures.filter((f) => !dead.has(f.router));
        if (failures.length > 0) problems.push(`round ${round}: reconciling after ${describeFault(fault)} failed: ${JSON.stringify(failures[0])}`);
      }
    }
    while (!session.finished && hosted.cycle - start < BATCH_LIMIT) session.advance(5_000);
    const where = round < 0 ? 'the final batch' : `round ${round}`;
    if (!session.finished) problems.push(`${where}: the batch (${JSON.stringify(request.pattern)}) did not finish in ${BATCH_LIMIT} cycles`);
    const books = hosted.books();
    if (!books.balanced) problems.push(`${where}: the books do not balance: ${JSON.stringify(books)}`);
    if (session.finished && (books.inFlight !== 0 || follower.inFlight !== 0))
      problems.push(`${where}: ${books.inFlight} packets in flight by the books, ${follower.inFlight} followed, after the batch finished`);
    const discarded = total(books.discarded) - discardedBefore;
    if ((!faulted || round < 0) && discarded > 0)
      problems.push(`${where}: ${discarded} packets discarded on a whole fabric (${JSON.stringify(books.discarded)})`);
  };

  for (let round = 0; round < c.rounds; round++)
    await batch(round, round === 0 && random() < 0.5 ? null : nextFault(), Math.floor(random() * settings.faultWithin));
  // Everything repaired, as the service would find it: revived routers reconciled, cables mended, noise gone.
  for (const chip of dead) hosted.applyFault({ action: 'revive-router', chip });
  for (const k of cut) hosted.applyFault({ action: 'restore-link', ...cables[k] });
  for (const k of noisy) hosted.applyFault({ action: 'lane-bit-error-rate', ...cables[k], lane: 0, rate: 0 });
  const report = await runUntilSettled(hosted, setup.entry.reconcile(setup.controller, setup.image), SETTLE_CYCLES);
  if (report.failures.length > 0) problems.push(`reconciling the repaired fabric failed: ${JSON.stringify(report.failures[0])}`);
  await batch(-1, null, 0);
  problems.push(...follower.problems);

  const books = hosted.books();
  const hash = createHash('sha256');
  for (const d of follower.deliveries) hash.update(`${d};`);
  hash.update(`|${setup.interrupts.join(';')}|${faults.join(';')}|${JSON.stringify(books)}`);
  return {
    family: c.family,
    seed: c.seed,
    fixture,
    books,
    interrupts: setup.interrupts.length,
    copies: follower.copies,
    faults,
    cycles: hosted.cycle,
    problems,
    digest: hash.digest('hex').slice(0, 32),
  };
}

/** A few multicast groups of an Anton 2 machine's ASICs (by name), drawn from the seed: small enough for every table. */
function multicastGroups(asics: readonly string[], seed: number): { group: number; source: string; destinations: { chip: string; endpoints: number[] }[] }[] {
  const random = mulberry32(seed * 31 + 5);
  const pick = () => asics[Math.floor(random() * asics.length)];
  return [1, 2, 3].map((group) => {
    const source = pick();
    const chips = new Set<string>();
    const wanted = Math.min(asics.length - 1, 2 + Math.floor(random() * 4));
    while (chips.size < wanted) {
      const chip = pick();
      if (chip !== source) chips.add(chip);
    }
    return {
      group,
      source,
      destinations: [...chips].map((chip) => ({
        chip,
        endpoints: [...new Set([Math.floor(random() * ANTON2_ENDPOINT_ADAPTERS), Math.floor(random() * ANTON2_ENDPOINT_ADAPTERS)])].sort((a, b) => a - b),
      })),
    };
  });
}

function total(discarded: Readonly<Record<string, number>>): number {
  return Object.values(discarded).reduce((a, b) => a + b, 0);
}

function describeFault(fault: PhysicalFault): string {
  const at = 'port' in fault ? `${fault.chip}:${fault.port}` : fault.chip;
  return fault.action === 'lane-bit-error-rate' ? `${fault.action} ${fault.rate} at ${at}` : `${fault.action} ${at}`;
}
