import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkAnton2Floorplan, loadAnton2Floorplan } from './anton2-floorplan';

const FILE = join(__dirname, '../../../../fixtures/anton2/anton2-floorplan.json');
const shipped = () =>
  JSON.parse(readFileSync(FILE, 'utf8')) as Record<string, unknown> & { channelAdapters: Record<string, number[]>; endpointAdapters: number[][] };
const problems = (value: unknown): string[] => {
  try {
    checkAnton2Floorplan(value);
    return [];
  } catch (error) {
    return (error as { issues: { path: string; message: string }[] }).issues.map((i) => `${i.path}: ${i.message}`);
  }
};

describe('the Anton 2 floorplan (paper 004 Fig. 1, kept as a data file)', () => {
  it('the shipped floorplan keeps every rule the text states, and gives each router at most six ports', () => {
    const plan = loadAnton2Floorplan(FILE);
    expect(plan.routers).toHaveLength(16);
    for (const r of plan.routers) expect(r.ports.length).toBeLessThanOrEqual(6);
    const at = (name: string) => plan.routers.find((r) => r.ports.some((p) => p.kind === 'channel' && p.channel === name));
    // §2.4's examples: Y0+ → R0,2 → Y0−; X1− → R3,0 —skip→ R0,0 → X1+.
    expect([at('Y0+'), at('Y0-')].map((r) => [r?.u, r?.v])).toEqual([
      [0, 2],
      [0, 2],
    ]);
    expect([at('X1-'), at('X1+')].map((r) => [r?.u, r?.v])).toEqual([
      [3, 0],
      [0, 0],
    ]);
    expect(plan.routers[3 * 4 + 0].ports).toContainEqual({ kind: 'skip', router: [0, 0] });
    // Every channel adapter on an I/O edge, 23 endpoint adapters, each mesh link at both ends.
    expect(plan.channelRouter.every(([u]) => u === 0 || u === 3)).toBe(true);
    expect(plan.routers.flatMap((r) => r.ports.filter((p) => p.kind === 'endpoint'))).toHaveLength(23);
    expect(plan.routers.flatMap((r) => r.ports.filter((p) => p.kind === 'mesh'))).toHaveLength(48);
  });

  it('names each broken rule where it is broken', () => {
    const moved = (changes: Record<string, number[]>) => ({ ...shipped(), channelAdapters: { ...shipped().channelAdapters, ...changes } });
    expect(problems(moved({ 'Y0-': [0, 1] }))).toEqual(['$.channelAdapters["Y0-"]: must be on the router of Y0+ (R0,2): a Y through-route crosses one router']);
    expect(problems(moved({ 'Z1+': [1, 2] }))).toContain('$.channelAdapters["Z1+"]: must be on an I/O edge (U = 0 or U = 3), got R1,2');
    expect(problems(moved({ 'X0-': [0, 2] }))).toContain(
      '$.channelAdapters["X0-"]: must be on the edge opposite X0+ (U = 0): the two X directions are split across the two edges',
    );
    expect(
      problems({
        ...shipped(),
        skipChannels: [
          {
            slice: 0,
            routers: [
              [3, 3],
              [0, 3],
            ],
          },
        ],
      }),
    ).toEqual(['$.skipChannels: slice 1 has no skip channel for its X through-routes']);
    expect(problems({ ...shipped(), endpointAdapters: shipped().endpointAdapters.slice(1) })).toEqual([
      '$.endpointAdapters: must place the 23 endpoint adapters, got 22',
    ]);
    const crowded = shipped().endpointAdapters.map((e, i) => (i < 4 ? [0, 1] : e));
    expect(problems({ ...shipped(), endpointAdapters: crowded })).toEqual(['$: router R0,1 would need 9 ports; a router has 6']);
    expect(problems({ ...shipped(), format: 'floorplan/2', extra: 1 })).toEqual([
      '$.extra: unknown field (allowed: format, description, channelAdapters, skipChannels, endpointAdapters)',
      '$.format: must be "weft-anton2-floorplan/1", got "floorplan/2"',
    ]);
  });
});
