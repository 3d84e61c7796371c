import { join } from 'node:path';
import { familySoak, FamilySoakOutcome, SoakedFamily } from './family-soak';

const FIXTURES = join(__dirname, '../../../../fixtures');

async function soaked(family: SoakedFamily, seeds: readonly number[], rounds: number): Promise<FamilySoakOutcome[]> {
  const outcomes: FamilySoakOutcome[] = [];
  for (const seed of seeds) outcomes.push(await familySoak({ family, seed, rounds, fixtures: FIXTURES }));
  return outcomes;
}

/** Every kind of fault and repair the seeds did, and every reason packets were discarded for. */
function didWhat(outcomes: readonly FamilySoakOutcome[]): { faults: string[]; discarded: string[] } {
  const faults = new Set(outcomes.flatMap((o) => o.faults.map((f) => f.replace(/^\d+: (\S+).*$/, '$1'))));
  const discarded = new Set(outcomes.flatMap((o) => Object.keys(o.books.discarded)));
  return { faults: [...faults].sort(), discarded: [...discarded].sort() };
}

describe('the family soak (npm run soak -- --family): every packet accounted for through random faults and repairs, the same seed the same run', () => {
  it('BlueGene/L, where it found static packets waiting for ever behind a dead neighbour and a noisy link resending past the calendar', async () => {
    // Seed 1 (the 4×4×4 cabling-faults midplane) stranded static packets; seed 10 threw the engine out with a long resend.
    const outcomes = await soaked('bgl', [1, 10], 10);
    expect(outcomes.flatMap((o) => o.problems)).toEqual([]);
    expect(didWhat(outcomes).faults).toEqual(expect.arrayContaining(['cut-link', 'kill-router', 'lane-bit-error-rate', 'revive-router']));
    expect(didWhat(outcomes).discarded).toEqual(['link-down', 'node-died']);
  }, 120_000);

  it('Anton 2, multicast copies among the packets (the first try had copies made while a session was being set up go unseen)', async () => {
    const outcomes = await soaked('anton2', [1, 4], 8);
    expect(outcomes.flatMap((o) => o.problems)).toEqual([]);
    expect(didWhat(outcomes).faults).toEqual(expect.arrayContaining(['cut-link', 'kill-router', 'revive-router']));
    expect(outcomes.every((o) => o.books.delivered > 200 && o.copies > 0)).toBe(true);
  }, 120_000);

  it("the flattened butterfly, where the digests found a dead router's terminals counting discards twice", async () => {
    const outcomes = await soaked('flattened-butterfly', [1, 2], 8);
    expect(outcomes.flatMap((o) => o.problems)).toEqual([]);
    expect(didWhat(outcomes)).toMatchObject({ discarded: ['link-down', 'router-dead'] });
    expect(didWhat(outcomes).faults).toEqual(expect.arrayContaining(['kill-router', 'cut-link']));
  }, 120_000);
});
