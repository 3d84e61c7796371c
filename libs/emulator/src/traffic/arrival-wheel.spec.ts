import { RandomStreams } from '@weft/fabric-model';
import { ArrivalWheel } from './arrival-wheel';

/** Arrivals on 8 ports in two parts over `cycles` cycles, the parts visited cycle by cycle or
 * each for the whole stretch on end: (cycle, port) per arrival, part by part. */
function arrivals(probability: number, cycles: number, apart: boolean): [number, number][][] {
  const partOfPort = Uint8Array.from([0, 1, 0, 1, 0, 1, 0, 1]);
  const streams = RandomStreams.seeded([3, 4]);
  const wheel = new ArrivalWheel(probability, partOfPort, streams, 100);
  const seen: [number, number][][] = [[], []];
  const visit = (part: number, t: number) => wheel.due(part, t, (k) => seen[part].push([t, k]));
  if (apart) for (let part = 0; part < 2; part++) for (let t = 100; t < 100 + cycles; t++) visit(part, t);
  else for (let t = 100; t < 100 + cycles; t++) for (let part = 0; part < 2; part++) visit(part, t);
  return seen;
}

describe('ArrivalWheel', () => {
  it('offers each port a packet per cycle with the given chance, the same whichever way the parts are run', () => {
    const together = arrivals(0.05, 40_000, false);
    expect(arrivals(0.05, 40_000, true)).toEqual(together);
    for (const part of together) {
      expect(part.every(([, k]) => k % 2 === part[0][1] % 2)).toBe(true);
      // 4 ports × 40 000 cycles × 0.05 = 8000, within a few standard deviations (about 87).
      expect(part.length).toBeGreaterThan(7_700);
      expect(part.length).toBeLessThan(8_300);
    }
    // Gaps longer than the wheel's 4096 slots are kept: at a chance of 1/20 000 per cycle, 8 ports
    // send about 160 packets in 400 000 cycles.
    const rare = arrivals(1 / 20_000, 400_000, false).flat();
    expect(rare.length).toBeGreaterThan(100);
    expect(rare.length).toBeLessThan(220);
  });

  it('refuses a chance outside (0, 1] and a port in a part without a stream', () => {
    expect(() => new ArrivalWheel(0, new Uint8Array(2), RandomStreams.seeded([1]), 0)).toThrow(/in \(0, 1\], got 0/);
    expect(() => new ArrivalWheel(0.5, Uint8Array.from([0, 1]), RandomStreams.seeded([1]), 0)).toThrow(
      /port 1 is in part 1, but there are random streams for 1 parts/,
    );
  });
});
