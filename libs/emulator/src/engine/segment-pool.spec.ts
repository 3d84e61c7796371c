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

  it('counts the phits that can leave one per cycle from a given cycle, stopping at the first that would be late', () => {
    const pool = new SegmentPool(1);
    const s = pool.allocate(0, 1000, 2);
    // Usable at 1002..1009 (inline slots), then 1014..1023 (past the record), then 1030.
    pool.sendRun(s, 1000, 8);
    pool.sendRun(s, 1012, 10);
    pool.sendRun(s, 1028, 1);
    expect(pool.usableRun(s, 0, 19, 1002)).toBe(8);
    // Starting later, the stretch still ends where the next phit comes too late.
    expect(pool.usableRun(s, 3, 19, 1005)).toBe(5);
    // Waiting lets the late phits catch up: from 1009, phit 8 (usable 1014) is due at 1010.
    expect(pool.usableRun(s, 7, 19, 1009)).toBe(1);
    expect(pool.usableRun(s, 7, 19, 1013)).toBe(11);
    // Past the record's inline slots, and bounded by `end` (phits not yet sent in).
    expect(pool.usableRun(s, 8, 19, 1014)).toBe(10);
    expect(pool.usableRun(s, 8, 12, 1014)).toBe(4);
    expect(pool.usableRun(s, 18, 19, 1030)).toBe(1);
  });
});
