import { SegmentPool } from './segment-pool';

describe('SegmentPool', () => {
  it('keeps every phit’s send time, in the record and past it, whether written a run or a phit at a time', () => {
    const pool = new SegmentPool(2);
    const byRun = pool.allocate(0, 100, 3);
    const byPhit = pool.allocate(1, 100, 3);
    // 19 phits (a cache-line write): gapless stretches, then a gap, across the record's inline slots.
    const times = [100, 101, 102, 103, 104, 105, 106, 107, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 130];
    pool.sendRun(byRun, 100, 8);
    pool.sendRun(byRun, 112, 10);
    pool.sendRun(byRun, 130, 1);
    for (const t of times) pool.sendAt(byPhit, t);
    // A third segment makes the pool grow: the times must survive the copy.
    pool.allocate(2, 0, 0);
    for (const s of [byRun, byPhit]) {
      expect(pool.sentInOf(s)).toBe(times.length);
      expect(times.map((_, k) => pool.sendTime(s, k))).toEqual(times);
      expect(times.map((_, k) => pool.usable(s, k))).toEqual(times.map((t) => t + 3));
    }
  });
});
