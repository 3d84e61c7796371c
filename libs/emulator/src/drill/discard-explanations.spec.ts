import { defaultCableLengths, generateBlackWidowDesign } from '@weft/fabric-model';
import type { DiscardRecord } from '../traffic/traffic-run';
import { DrillCourse, explainDiscards } from './discard-explanations';
import type { DrillAction } from './drill-file';

// Two R1 subtrees of 32 processors on two slices: s0.r1.0 serves p0–p31 in slice 0 (p5 on its
// port 3), and its port 39 is cabled to s0.r1.1:35.
const design = generateBlackWidowDesign({ network: 'R1.5', processors: 64, slices: 2, r1Uplinks: 32, portSeed: 1, cableLengths: defaultCableLengths(64) });

/**
 * A drill whose steps happened at `stepNs` of the traffic run, which began 1 µs before the drill;
 * each push when it landed, knowing of every fault up to then, or [landed, knew of faults up to].
 */
function course(timeline: DrillAction[], stepNs: number[], pushesNs: (number | [number, number])[]): DrillCourse {
  const pushes = pushesNs.map((p) => (typeof p === 'number' ? { atNs: p, knowsNs: p } : { atNs: p[0], knowsNs: p[1] }));
  return { timeline, labels: timeline.map((s) => `${s.action} ${s.chip}`), stepNs, pushes, drainNs: 10_000, drillStartNs: 1_000 };
}

function record(r: Partial<DiscardRecord> & Pick<DiscardRecord, 'reason' | 'chip' | 'firstNs' | 'lastNs'>): DiscardRecord {
  return { epoch: 1, port: 0, destination: 40, count: 10, ...r };
}

describe('explaining a drill’s discards', () => {
  const cut = course([{ atNs: 100_000, action: 'cut-link', chip: 's0.r1.0', port: 39 }], [101_000], [150_000]);

  it('explains LinkDown discards at both ends of a cut cable until the healing push and its drain time', () => {
    const verdict = explainDiscards(design, cut, [
      record({ reason: 'LinkDown', chip: 's0.r1.0', firstNs: 101_000, lastNs: 150_500 }),
      record({ reason: 'LinkDown', chip: 's0.r1.1', port: 40, firstNs: 101_200, lastNs: 159_000 }),
      record({ reason: 'LinkDown', chip: 'p7', port: 0, destination: 7, count: 2, firstNs: 101_100, lastNs: 101_300 }),
    ]);
    expect(verdict).toMatchObject({ total: 22, explained: 22, unexplained: 0 });
    expect(verdict.causes).toEqual([
      { cause: 'cut-link s0.r1.0', count: 20, byReason: { LinkDown: 20 }, firstNs: 100_000, lastNs: 158_000, untilNs: 159_000 },
      {
        cause: 'cut-link s0.r1.0: packets on the cable when it broke',
        count: 2,
        byReason: { LinkDown: 2 },
        firstNs: 100_100,
        lastNs: 100_300,
        untilNs: 110_000,
      },
    ]);
  });

  it('does not explain a discard elsewhere, of another reason, after the drain time, or before the fault', () => {
    const elsewhere = record({ reason: 'LinkDown', chip: 's1.r1.0', firstNs: 110_000, lastNs: 120_000 });
    const misrouted = record({ reason: 'NoRoute', chip: 's0.r1.0', firstNs: 110_000, lastNs: 120_000 });
    const late = record({ reason: 'LinkDown', chip: 's0.r1.0', firstNs: 110_000, lastNs: 160_001 });
    const lostLate = record({ reason: 'LinkDown', chip: 'p7', destination: 7, firstNs: 120_000, lastNs: 120_000 });
    const before = record({ epoch: 0, reason: 'LinkDown', chip: 's0.r1.0', firstNs: 50_000, lastNs: 60_000 });
    const verdict = explainDiscards(design, cut, [elsewhere, misrouted, late, lostLate, before]);
    expect(verdict).toMatchObject({ total: 50, explained: 0, unexplained: 50 });
    expect(verdict.unexplainedExamples.map((r) => [r.reason, r.chip, r.firstNs])).toEqual([
      ['LinkDown', 's1.r1.0', 109_000],
      ['NoRoute', 's0.r1.0', 109_000],
      ['LinkDown', 's0.r1.0', 109_000],
      ['LinkDown', 'p7', 119_000],
      ['LinkDown', 's0.r1.0', 49_000],
    ]);
  });

  it('heals a fault at the first push that knew of it: one landing after a second cut, computed for the first, does not heal the second', () => {
    const other = design.cables.find((c) => c.a.chip.startsWith('s1.r1') && c.b.chip.startsWith('s1.r1'))!;
    const twoCuts = course(
      [
        { atNs: 100_000, action: 'cut-link', chip: 's0.r1.0', port: 39 },
        { atNs: 120_000, action: 'cut-link', chip: other.a.chip, port: other.a.port },
      ],
      [101_000, 121_000],
      // The first cut's reaction lands after the second cut; the second's 20 µs later.
      [
        [130_000, 101_000],
        [150_000, 121_000],
      ],
    );
    const verdict = explainDiscards(design, twoCuts, [
      record({ reason: 'LinkDown', chip: 's0.r1.0', firstNs: 101_000, lastNs: 139_000 }),
      record({ epoch: 2, reason: 'LinkDown', chip: other.b.chip, port: other.b.port, firstNs: 121_000, lastNs: 155_000 }),
      record({ reason: 'LinkDown', chip: 's0.r1.1', firstNs: 101_000, lastNs: 141_000 }),
    ]);
    expect(verdict.causes.map((c) => [c.cause, c.count, c.untilNs])).toEqual([
      ['cut-link s0.r1.0', 10, 139_000],
      [`cut-link ${other.a.chip}`, 10, 159_000],
    ]);
    expect(verdict.unexplainedExamples.map((r) => [r.chip, r.lastNs])).toEqual([['s0.r1.1', 140_000]]);
  });

  it('explains, after a router dies, any discard of packets for the processors it served for as long as it is dead', () => {
    const death = course([{ atNs: 100_000, action: 'kill-router', chip: 's0.r1.0' }], [101_000], [150_000]);
    const verdict = explainDiscards(design, death, [
      record({ reason: 'RouterDead', chip: 's0.r1.0', firstNs: 101_000, lastNs: 101_050 }),
      record({ reason: 'LinkDown', chip: 's0.r1.1', destination: 40, firstNs: 101_000, lastNs: 149_000 }),
      // After the push: the tables have no way to p5, served by the dead router.
      record({ reason: 'NoRoute', chip: 's0.r1.1', destination: 5, firstNs: 150_100, lastNs: 900_000 }),
      // p5 cannot send in slice 0: its port 0 is cabled to the dead router.
      record({ reason: 'Unreachable', chip: 'p5', port: 0, destination: 50, firstNs: 101_000, lastNs: 900_000 }),
      // But p5 sends in slice 1 as before, and nothing else may go missing after the push.
      record({ reason: 'Unreachable', chip: 'p5', port: 1, destination: 50, firstNs: 101_000, lastNs: 101_000 }),
      record({ reason: 'NoRoute', chip: 's0.r1.1', destination: 40, firstNs: 150_100, lastNs: 160_000 }),
    ]);
    expect(verdict).toMatchObject({ total: 60, explained: 40, unexplained: 20 });
    expect(verdict.causes.map((c) => [c.cause, c.count])).toEqual([
      ['kill-router s0.r1.0', 20],
      ['kill-router s0.r1.0: packets for the processors it served', 10],
      ['kill-router s0.r1.0: what the processors it served sent through it', 10],
    ]);
    expect(verdict.unexplainedExamples.map((r) => [r.reason, r.chip, r.port, r.destination])).toEqual([
      ['Unreachable', 'p5', 1, 50],
      ['NoRoute', 's0.r1.1', 0, 40],
    ]);
  });

  it('explains what a revived router, still unconfigured, cannot route for its processors until the next push', () => {
    const timeline: DrillAction[] = [
      { atNs: 100_000, action: 'kill-router', chip: 's0.r1.0' },
      { atNs: 500_000, action: 'revive-router', chip: 's0.r1.0' },
    ];
    const revival = course(timeline, [101_000, 501_000], [150_000, 560_000]);
    const verdict = explainDiscards(design, revival, [
      // p5 sends into it on its port 3 after the revival: no tables yet.
      record({ epoch: 2, reason: 'NoRoute', chip: 's0.r1.0', port: 3, destination: 40, firstNs: 501_000, lastNs: 559_000 }),
      // After the push that configures it, nothing more.
      record({ epoch: 2, reason: 'NoRoute', chip: 's0.r1.0', port: 3, destination: 41, firstNs: 580_000, lastNs: 580_000 }),
    ]);
    expect(verdict).toMatchObject({ explained: 10, unexplained: 10 });
    expect(verdict.causes).toEqual([
      expect.objectContaining({ cause: 'kill-router s0.r1.0: what the processors it served sent through it', untilNs: 569_000 }),
    ]);
  });

  it('explains forward-progress discards of packets for a stalled processor on its router, to the end', () => {
    const stuck = course([{ atNs: 100_000, action: 'stop-accepting', chip: 'p5', port: 0 }], [101_000], []);
    const verdict = explainDiscards(design, stuck, [
      record({ reason: 'ForwardProgressTimeout', chip: 's0.r1.0', port: 33, destination: 5, firstNs: 180_000, lastNs: 4_000_000 }),
      record({ reason: 'ForwardProgressTimeout', chip: 's0.r1.0', port: 33, destination: 6, firstNs: 180_000, lastNs: 190_000 }),
    ]);
    expect(verdict).toMatchObject({ explained: 10, unexplained: 10 });
    expect(verdict.causes).toEqual([expect.objectContaining({ cause: 'stop-accepting p5', untilNs: null })]);
  });
});
