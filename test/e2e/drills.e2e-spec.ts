import { spawn } from 'node:child_process';
import { EmulatorService } from '../../apps/fabric-manager/src/emulator/emulator.service';
import { passedDrill } from './support/drills';
import { TestService } from './support/test-service';

const START = `mutation($input: StartDrillInput!) { startDrill(input: $input) { id state drill } }`;
const RUN = `query($id: ID!) { drillRun(id: $id) { state progress { emulatedNs durationNs step } report text plotSvg } }`;

interface RunView {
  state: string;
  progress: { emulatedNs: number; durationNs: number; step: string } | null;
  report: {
    passed: boolean;
    expectations: { name: string; passed: boolean; actual: string }[];
    heal: { healNs: number | null }[];
    generations: { incremental: boolean; computeMs: number; chargedMs: number; pushedAtNs: number | null }[];
    fabric: { id: number; kept: boolean };
    discards: { total: number; explained: number; unexplained: number; causes: { cause: string; count: number; byReason: Record<string, number> }[] };
    traffic: {
      books: { balanced: boolean; injected: number; delivered: number; discarded: Record<string, number>; inFlight: number };
      markers: { label: string }[];
    };
  } | null;
  text: string | null;
  plotSvg: string | null;
}

/** A shipped drill run through the API: the fabric breaks under load and heals without an operator. */
describe('drills', () => {
  jest.setTimeout(180_000);
  let service: TestService;
  let key: string;

  beforeAll(async () => {
    service = await TestService.start();
    key = service.bootstrapKey!;
  });
  afterAll(() => service.stop());

  /** Where the run said it was, each time it was asked while it ran. */
  const progressSeen: NonNullable<RunView['progress']>[] = [];
  const finish = async (id: string): Promise<RunView> => {
    for (;;) {
      const run = (await service.gql<{ drillRun: RunView }>(RUN, { id }, key)).data!.drillRun;
      if (run.state !== 'running') return run;
      if (run.progress) progressSeen.push(run.progress);
      if (process.env.DRILL_DEBUG) console.log(JSON.stringify(run.progress), JSON.stringify(await service.app.get(EmulatorService).fabricStatus()));
      await new Promise((r) => setTimeout(r, 500));
    }
  };

  it('cable cut under load: routed around by the automation, its compute time charged, every packet accounted for', async () => {
    // An automation client follows the stream during the drill, drops its connection after a few
    // events, and resumes from its cursor: it must see every event once, in order.
    const seen: { id: string; cursor: string }[] = [];
    const follow = (after: string | null, stopAfter: number) =>
      new Promise<() => Promise<void>>((resolve) => {
        const client = service.wsClient(key);
        let n = 0;
        const stop = async () => client.dispose();
        client.subscribe(
          { query: 'subscription($after: String) { fabricEvents(after: $after) { id cursor } }', variables: { after } },
          {
            next: (m) => {
              seen.push(m.data!.fabricEvents as { id: string; cursor: string });
              if (++n === stopAfter) void stop();
            },
            error: () => undefined,
            complete: () => undefined,
          },
        );
        client.on('connected', () => resolve(stop));
      });
    await follow(null, 3);
    const started = await service.gql<{ startDrill: { id: string; state: string; drill: string } }>(START, { input: { fixture: 'cable-cut-under-load' } }, key);
    expect(started.data!.startDrill).toMatchObject({ state: 'running', drill: 'cable-cut-under-load' });
    while (seen.length < 3) await new Promise((r) => setTimeout(r, 50));
    progressSeen.length = 0;
    const run = await finish(started.data!.startDrill.id);
    // Its progress is the fabric's clock, rising, and not its end while it runs to the end.
    const times = progressSeen.map((p) => p.emulatedNs);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(progressSeen.some((p) => p.step === 'running to the end' && p.emulatedNs < p.durationNs)).toBe(true);
    // Back after the drill: everything it missed is replayed from the cursor.
    const stopResumed = await follow(seen[seen.length - 1].cursor, Infinity);
    await new Promise((r) => setTimeout(r, 500));
    await stopResumed();
    expect(seen.length - 3).toBeGreaterThanOrEqual(5); // the drill's interrupts, fault, step and generation, replayed
    const stored = await service.gql<{ events: { edges: { node: { id: string } }[] } }>('{ events(first: 500) { edges { node { id } } } }', {}, key);
    expect(seen.map((e) => e.id)).toEqual(stored.data!.events.edges.map((e) => e.node.id));
    if (process.env.DRILL_DEBUG) console.log(run.text);
    const r = run.report!;
    // The compute time charged to the fabric is the computation's CPU time, so every expectation
    // holds, the heal-time bound included, however busy the machine (see the next spec).
    expect(r.expectations.filter((e) => !e.passed)).toEqual([]);
    expect(run.state).toBe('passed');
    expect(run.text).toContain('drill cable-cut-under-load: PASSED');
    expect(run.text).toContain("each computation's CPU time is charged to emulated time, not its wall time");
    expect(r.generations.length).toBeGreaterThanOrEqual(1);
    expect(r.generations[0]).toMatchObject({ incremental: true });
    // The push lands no earlier than the fault plus the compute time charged for it.
    expect(r.generations[0].chargedMs).toBeGreaterThan(0);
    expect(r.heal[0].healNs).toBeGreaterThanOrEqual(r.generations[0].chargedMs * 1e6);
    expect(r.traffic.books.balanced).toBe(true);
    // Every packet lost was lost at the cut cable's two routers, while it was cut and not yet routed
    // around, or on the cable itself.
    const lost = Object.values(r.traffic.books.discarded).reduce((a, b) => a + b, 0);
    expect(lost).toBeGreaterThan(0);
    expect(r.discards).toMatchObject({ total: lost, explained: lost, unexplained: 0 });
    expect(r.discards.causes.map((c) => c.cause)).toEqual(expect.arrayContaining(['cut-link s0.r1.2:40']));
    expect(run.text).toContain(`discards: ${lost}, every one explained by a fault:`);
    expect(r.traffic.markers.map((m) => m.label)).toEqual(['cut-link s0.r1.2:40']);
    expect(run.plotSvg).toMatch(/^<svg [^>]*>[\s\S]*generation \d+ pushed[\s\S]*<\/svg>\n$/);
    // The drill's fabric is gone once the run has ended; the report keeps what it measured.
    expect(run.text).toContain(`(fabric #${r.fabric.id}, blackwidow/bw-r1.5-288, deleted after the run;`);
    const fabrics = await service.gql<{ fabrics: { edges: { node: { id: string } }[] } }>('{ fabrics { edges { node { id } } } }', {}, key);
    expect(fabrics.data!.fabrics.edges.map((e) => e.node.id)).not.toContain(String(r.fabric.id));
  });

  it('gives the same verdict, heal time within its bound, with both cores kept busy by other processes', async () => {
    // A service of its own whose emulator runs at the priority of the processes that keep the
    // cores busy (the shared one's yields to them, and would take minutes): the control plane's
    // computation then takes longer in wall time than on an idle machine, as it did when wall time
    // was charged and this drill failed its 10 ms bound on a loaded machine.
    const busy = await TestService.start({ config: { WEFT_EMULATOR_NICE: 0 } });
    const burners = [0, 1].map(() => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
    try {
      // Through the command line, as an operator runs it: exit code, printed report, every expectation.
      await passedDrill(busy, busy.bootstrapKey!, 'cable-cut-under-load');
    } finally {
      for (const burner of burners) burner.kill('SIGKILL');
      await busy.stop();
    }
  });

  it('runs on past its end when the healing push comes after it, and measures the fabric after healing', async () => {
    // The cut comes one interval before the end: the push that routes around it, held back by the
    // compute time charged to the fabric, cannot land before the end.
    const drill = {
      format: 'weft-drill/1',
      name: 'late-cut',
      fabric: 'blackwidow/bw-r1.5-288',
      traffic: { pattern: { kind: 'uniform-random' }, load: 0.01, packetPhits: 4, slices: [0], seed: 5 },
      durationNs: 600_000,
      intervalNs: 50_000,
      timeline: [{ atNs: 550_000, action: 'cut-link', chip: 's0.r1.2', port: 40 }],
      expectations: { unaccounted: 0, throughputAfterFraction: 0.9 },
    };
    const started = await service.gql<{ startDrill: { id: string } }>(START, { input: { drill: JSON.stringify(drill), keepFabric: true } }, key);
    const run = await finish(started.data!.startDrill.id);
    const r = run.report! as RunView['report'] & { durationNs: number; endNs: number };
    // Kept, as asked: its generations are there to look at.
    const generations = await service.gql<{ generations: { number: number; state: string }[] }>(
      'query($input: FabricIdInput!) { generations(input: $input) { number state } }',
      { input: { fabricId: String(r.fabric.id) } },
      key,
    );
    expect(generations.data!.generations.map((g) => g.state)).toEqual(['pushed', 'pushed']);
    expect(r.heal[0].healNs).toBeGreaterThan(50_000);
    // Stopped five intervals after the push, not at the drill's end; the throughput after it measured.
    expect(r.endNs).toBeGreaterThanOrEqual(550_000 + r.heal[0].healNs! + 5 * 50_000);
    expect(r.expectations.map((e) => [e.name, e.passed])).toEqual([
      ['discards explained by the faults', true],
      ['packets unaccounted for', true],
      ['throughput after healing, as a fraction of before', true],
    ]);
    expect(run.text).toContain('traffic stopped, past the end of 600.0 µs: a healing push came after it');
    expect(run.state).toBe('passed');
  });

  it('refuses a drill that names what its fabric does not have, saying where', async () => {
    const drill = {
      format: 'weft-drill/1',
      name: 'bad-target',
      fabric: 'blackwidow/bw-r1-32',
      traffic: { pattern: { kind: 'uniform-random' }, load: 0.01, packetPhits: 4, slices: [0], seed: 1 },
      durationNs: 100_000,
      timeline: [{ atNs: 10_000, action: 'cut-link', chip: 's0.r1.0', port: 40 }],
      expectations: {},
    };
    const result = await service.gql(START, { input: { drill: JSON.stringify(drill) } }, key);
    expect(result.errors![0]).toMatchObject({
      message: 'invalid drill: $.timeline[0].port: s0.r1.0 has no cable on port 40',
      extensions: { code: 'BAD_USER_INPUT' },
    });
  });
});
