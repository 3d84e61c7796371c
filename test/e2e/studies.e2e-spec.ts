import { randomBytes } from 'node:crypto';
import { StudiesService } from '../../apps/fabric-manager/src/studies/studies.service';
import { SweepStudy } from './support/sweep-study';
import { createKey, LOAD_FABRIC, TestService } from './support/test-service';

const START_SWEEP = `mutation($input: StartSweepInput!) { startSweep(input: $input) { id state pointsTotal points { index parameters state } } }`;
const STUDY = `query($id: ID!) { study(id: $id) { id state generation pointsDone pointsTotal points { index state worker attempts result } report } }`;
/** Small runs: a point is a second or less on the 32-processor fabric. */
const SWEEP = { fabricId: 1, pattern: 'uniform-random', seed: 7, warmupMinCycles: 300, warmupMaxCycles: 3_000, sampleCycles: 1_000, drainLimit: 20_000 };

/**
 * Studies without a job queue (issue 40): the manager does a sweep's points itself, each on an
 * emulated fabric of its own configured with the last pushed generation, and reports the sweep.
 */
describe('studies done by the manager itself (no job queue): sweeps, channel-load studies, drill campaigns', () => {
  jest.setTimeout(120_000);
  let service: TestService;
  let operator: string;
  beforeAll(async () => {
    service = await TestService.start({ defaultFixture: 'blackwidow/bw-r1-32', config: { WEFT_QUEUE_PREFIX: `t${randomBytes(3).toString('hex')}` } });
    operator = await createKey(service, service.bootstrapKey!, 'operator');
  });
  afterAll(() => service?.stop());

  it('runs every load as a point and reports latency against load, saturation included', async () => {
    const started = await service.gql<{ startSweep: { id: string; state: string; pointsTotal: number } }>(
      START_SWEEP,
      { input: { ...SWEEP, loads: [0.9, 0.1, 0.5] } },
      operator,
    );
    expect(started.errors).toBeUndefined();
    expect(started.data!.startSweep).toMatchObject({ state: 'queued', pointsTotal: 3 });
    await service.app.get(StudiesService).settled();
    const study = (await service.gql<{ study: SweepStudy }>(STUDY, { id: started.data!.startSweep.id }, operator)).data!.study;
    expect(study).toMatchObject({ state: 'finished', generation: 1, pointsDone: 3 });
    expect(study.points.map((p) => [p.state, p.worker, p.attempts])).toEqual([
      ['done', 'manager', 1],
      ['done', 'manager', 1],
      ['done', 'manager', 1],
    ]);
    const report = study.report!;
    expect(report.points.map((p) => p.load)).toEqual([0.1, 0.5, 0.9]);
    expect(report.points[0].accepted).toBeCloseTo(0.1, 1);
    expect(report.points[0].saturated).toBe(false);
    expect(report.points[2].meanLatencyCycles).toBeGreaterThan(report.points[0].meanLatencyCycles);
    expect(report.peakAccepted).toBe(Math.max(...report.points.map((p) => p.accepted)));
  });

  it('refuses a sweep it cannot run, naming why, and keeps nothing of it', async () => {
    const before = await service.rowCounts();
    const studiesNow = async () =>
      (await service.gql<{ studies: { id: string }[] }>('{ studies(input: { fabricId: 1 }) { id } }', {}, operator)).data!.studies.length;
    const studiesBefore = await studiesNow();
    const duplicate = await service.gql(START_SWEEP, { input: { ...SWEEP, loads: [0.2, 0.2] } }, operator);
    expect(duplicate.errors![0]).toMatchObject({ message: 'invalid sweep: loads: each load once (0.2, 0.2)', extensions: { code: 'BAD_USER_INPUT' } });
    const tooHigh = await service.gql(START_SWEEP, { input: { ...SWEEP, loads: [0.5, 1.5] } }, operator);
    expect(tooHigh.errors![0].extensions.code).toBe('BAD_USER_INPUT');
    expect(tooHigh.errors![0].message).toMatch(/loads/);
    const badPattern = await service.gql(START_SWEEP, { input: { ...SWEEP, pattern: 'zigzag', loads: [0.5] } }, operator);
    expect(badPattern.errors![0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
    expect(badPattern.errors![0].message).toMatch(/^invalid sweep: load 0.5: .*zigzag/);
    const viewer = await createKey(service, service.bootstrapKey!, 'viewer');
    const forbidden = await service.gql(START_SWEEP, { input: { ...SWEEP, loads: [0.5] } }, viewer);
    expect(forbidden.errors![0].extensions.code).toBe('FORBIDDEN');
    const missing = await service.gql(STUDY, { id: '999' }, viewer);
    expect(missing.errors![0]).toMatchObject({ message: 'no study with id 999', extensions: { code: 'NOT_FOUND' } });
    // A fabric never configured has no generation for the points to run under.
    const unconfigured = await service.gql<{ loadFabric: { id: string } }>(LOAD_FABRIC, { input: { fixture: 'blackwidow/bw-r1-32', name: 'spare' } }, operator);
    const fabricId = Number(unconfigured.data!.loadFabric.id);
    const notConfigured = await service.gql(START_SWEEP, { input: { ...SWEEP, fabricId, loads: [0.5] } }, operator);
    expect(notConfigured.errors![0]).toMatchObject({
      message: `fabric ${fabricId} holds no pushed generation: configure it first (the points run under its configuration)`,
      extensions: { code: 'CONFLICT', reason: 'STUDY_FABRIC_NOT_CONFIGURED' },
    });
    await service.gql('mutation($id: ID!) { deleteFabric(input: { id: $id }) { id } }', { id: fabricId }, operator);
    expect({ ...(await service.rowCounts()), api_key: 0, audit_entry: 0, fabric_event: 0 }).toEqual({ ...before, api_key: 0, audit_entry: 0, fabric_event: 0 });
    expect(await studiesNow()).toBe(studiesBefore);
  });

  it('runs a channel-load study a seed a point, each point finding what the channel-load analysis finds for its seed', async () => {
    const started = await service.gql<{ startChannelLoadStudy: { id: string } }>(
      'mutation($input: StartChannelLoadStudyInput!) { startChannelLoadStudy(input: $input) { id } }',
      { input: { fabricId: 1, pattern: 'random-permutation', seeds: [3, 1, 2], top: 5 } },
      operator,
    );
    expect(started.errors).toBeUndefined();
    await service.app.get(StudiesService).settled();
    const study = (
      await service.gql<{ study: { state: string; report: ChannelLoadStudyReport } }>(STUDY_REPORT, { id: started.data!.startChannelLoadStudy.id }, operator)
    ).data!.study;
    expect(study.state).toBe('finished');
    expect(study.report.points.map((p) => p.seed)).toEqual([3, 1, 2]);
    for (const point of study.report.points) {
      const direct = await service.gql<{ channelLoad: { maximum: number; mean: number } }>(
        'query($seed: Int!) { channelLoad(input: { fabricId: 1, pattern: "random-permutation", seed: $seed }) { maximum mean } }',
        { seed: point.seed },
        operator,
      );
      expect({ maximum: point.maximum, mean: point.mean }).toEqual(direct.data!.channelLoad);
    }
    expect(study.report.maximum.max).toBe(Math.max(...study.report.points.map((p) => p.maximum)));
    expect(study.report.hottest.length).toBeGreaterThan(0);
  });

  it('runs a drill campaign a seed a point, each drill in a manager of its own, and counts the verdicts', async () => {
    const started = await service.gql<{ startDrillCampaign: { id: string } }>(
      'mutation($input: StartDrillCampaignInput!) { startDrillCampaign(input: $input) { id } }',
      { input: { fixture: 'bgl-cable-cut', seeds: [5, 6] } },
      operator,
    );
    expect(started.errors).toBeUndefined();
    await service.app.get(StudiesService).settled();
    const study = (
      await service.gql<{ study: { state: string; fabricId: string | null; report: DrillCampaignReport } }>(
        STUDY_REPORT,
        { id: started.data!.startDrillCampaign.id },
        operator,
      )
    ).data!.study;
    expect(study).toMatchObject({ state: 'finished', fabricId: null });
    expect(study.report).toMatchObject({ drill: 'bgl-cable-cut', runs: 2, passed: 2, failed: 0, aborted: 0 });
    expect(study.report.points.map((p) => [p.seed, p.state, p.unaccounted])).toEqual([
      [5, 'passed', 0],
      [6, 'passed', 0],
    ]);
    expect(study.report.healNs!.max).toBeGreaterThan(0);
    // The drills' fabrics were the drills' own managers': none was added to this one's.
    const fabrics = await service.gql<{ fabrics: { totalCount: number } }>('{ fabrics(first: 10) { totalCount } }', {}, operator);
    expect(fabrics.data!.fabrics.totalCount).toBe(1);
  });

  it('refuses a campaign or a study with a bad drill, pattern or seeds, naming the problem', async () => {
    const campaign = (input: Record<string, unknown>) =>
      service.gql('mutation($input: StartDrillCampaignInput!) { startDrillCampaign(input: $input) { id } }', { input }, operator);
    expect((await campaign({ fixture: 'no-such-drill', seeds: [1] })).errors![0]).toMatchObject({
      message: 'no shipped drill "no-such-drill"',
      extensions: { code: 'NOT_FOUND' },
    });
    expect((await campaign({ fixture: 'cable-cut-under-load', seeds: [1, 1] })).errors![0]).toMatchObject({
      message: 'invalid drill campaign: seeds: each seed once (1, 1)',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    expect((await campaign({ drill: '{"format":"weft-drill/1"}', seeds: [1] })).errors![0]).toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', reason: 'DRILL_INVALID' },
    });
    const study = await service.gql(
      'mutation($input: StartChannelLoadStudyInput!) { startChannelLoadStudy(input: $input) { id } }',
      { input: { fabricId: 1, pattern: 'zigzag', seeds: [1] } },
      operator,
    );
    expect(study.errors![0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
    expect(study.errors![0].message).toMatch(/^invalid channel-load study: unknown pattern "zigzag"/);
  });
});

const STUDY_REPORT = `query($id: ID!) { study(id: $id) { state fabricId report } }`;

interface ChannelLoadStudyReport {
  pattern: string;
  seeds: number;
  maximum: { min: number; mean: number; max: number };
  points: { seed: number; maximum: number; mean: number; undeliverable: number }[];
  hottest: { chip: string; port: number; seeds: number }[];
}

interface DrillCampaignReport {
  drill: string;
  runs: number;
  passed: number;
  failed: number;
  aborted: number;
  healNs: { median: number; max: number } | null;
  points: { seed: number; state: string; healNs: number | null; unaccounted: number | null }[];
}
