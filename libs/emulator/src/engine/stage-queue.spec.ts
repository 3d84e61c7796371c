import { StageQueue } from './stage-queue';

/** Runs `cycles` cycles of one queue evaluated in phase 1; returns which stages were visited when. */
function run(queue: StageQueue, from: number, cycles: number, onVisit: (stage: number, now: number) => void = () => undefined): string[] {
  const visits: string[] = [];
  for (let now = from; now < from + cycles; now++) {
    queue.fire(0, now);
    queue.enter(0);
    for (let i = 0; i < queue.count[0]; i++) {
      const stage = queue.visit(0, i, now);
      visits.push(`${now}:${stage}`);
      onVisit(stage, now);
    }
    queue.leave(0, now);
  }
  return visits;
}

describe('StageQueue (stage wake-ups on its own wheel)', () => {
  it('visits a stage once per cycle however often it is woken for that cycle, and at each future wake-up', () => {
    const queue = new StageQueue(8, 64, 1);
    queue.wake(3, 0, 0, 0);
    queue.wake(3, 0, 0, 0);
    queue.wake(5, 2, 0, 0);
    expect(run(queue, 0, 4)).toEqual(['0:3', '2:5']);
    expect(queue.pending).toBe(0);
  });

  it('drops a wake-up later than one already pending, and one an earlier wake-up replaced: the earlier visit re-arms', () => {
    const arm = () => {
      const queue = new StageQueue(8, 64, 1);
      queue.wake(2, 10, 0, 0);
      queue.wake(2, 15, 0, 0);
      queue.wake(2, 4, 0, 0);
      expect(queue.pending).toBe(1);
      return queue;
    };
    const quiet = arm();
    expect(run(quiet, 0, 20)).toEqual(['4:2']);
    expect(quiet.pending).toBe(0);
    // A visit that re-arms for cycle 10 is visited then, once.
    const rearming = arm();
    expect(run(rearming, 0, 20, (stage, now) => now === 4 && rearming.wake(stage, 10, now, 1))).toEqual(['4:2', '10:2']);
    expect(rearming.pending).toBe(0);
  });

  it('keeps the other wake-ups of a cycle when one of them is moved earlier, whichever place it held', () => {
    for (const moved of [1, 3, 5]) {
      const queue = new StageQueue(8, 64, 1);
      for (const stage of [1, 3, 5]) queue.wake(stage, 9, 0, 0);
      queue.wake(moved, 6, 0, 0);
      queue.wake(7, 9, 0, 0);
      const visits = run(queue, 0, 12);
      expect(visits.filter((v) => v.startsWith('6:'))).toEqual([`6:${moved}`]);
      expect(visits.filter((v) => v.startsWith('9:')).sort()).toEqual(['9:1', '9:3', '9:5', '9:7'].filter((v) => v !== `9:${moved}`));
      expect(queue.pending).toBe(0);
    }
  });

  it('visits every stage woken for a cycle once, however many, when some were moved away and woken again', () => {
    const queue = new StageQueue(5000, 64, 1);
    for (let stage = 0; stage < 5000; stage++) queue.wake(stage, 20, 0, 0);
    // Every third stage is moved to cycle 10; visited then, the even ones wake again for 20, the odd for 25.
    for (let stage = 0; stage < 5000; stage += 3) queue.wake(stage, 10, 0, 0);
    const visits = run(queue, 0, 30, (stage, now) => now === 10 && queue.wake(stage, stage % 2 === 0 ? 20 : 25, now, 1));
    const at = (cycle: number) =>
      visits
        .filter((v) => v.startsWith(`${cycle}:`))
        .map((v) => Number(v.slice(3)))
        .sort((a, b) => a - b);
    const stages = [...Array(5000).keys()];
    expect(at(10)).toEqual(stages.filter((stage) => stage % 3 === 0));
    expect(at(20)).toEqual(stages.filter((stage) => stage % 3 !== 0 || stage % 2 === 0));
    expect(at(25)).toEqual(stages.filter((stage) => stage % 3 === 0 && stage % 2 === 1));
    expect(queue.pending).toBe(0);
  });

  it('defers to the next cycle a wake-up for now that comes after its phase or after its visit', () => {
    const queue = new StageQueue(8, 64, 1);
    queue.wake(1, 0, 0, 2); // phase 2 is past this queue's phase 1
    queue.wake(4, 0, 0, 0);
    // Stage 4 wakes itself again while being visited: once more, in the next cycle.
    expect(run(queue, 0, 3, (stage, now) => stage === 4 && now === 0 && queue.wake(4, now, now, 1)).sort()).toEqual(['0:4', '1:1', '1:4']);
  });

  it('keeps each part to itself: a part is evaluated on its own, and one already evaluated this cycle waits for the next', () => {
    // Stages 0–3 are part 0, stages 4–7 part 1.
    const queue = new StageQueue(8, 64, 1, Uint8Array.from([0, 0, 0, 0, 1, 1, 1, 1]));
    expect(queue.parts).toBe(2);
    queue.wake(5, 2, 0, 0);
    queue.wake(1, 2, 0, 0);
    queue.wake(6, 3, 0, 0);
    const visits: string[] = [];
    for (let now = 0; now < 5; now++)
      for (let part = 0; part < 2; part++) {
        queue.fire(part, now);
        queue.enter(part);
        for (let i = 0; i < queue.count[part]; i++) {
          const stage = queue.visit(part, i, now);
          visits.push(`${now}:${part}:${stage}`);
          // At cycle 2, part 0 wakes stage 7 of part 1 (still to come this cycle) and part 1 wakes
          // stage 2 of part 0 (done with this cycle), both for now.
          if (now === 2 && stage === 1) queue.wake(7, now, now, 1);
          if (now === 2 && stage === 5) queue.wake(2, now, now, 1);
        }
        queue.leave(part, now);
      }
    expect(visits).toEqual(['2:0:1', '2:1:7', '2:1:5', '3:0:2', '3:1:6']);
    expect(queue.pending).toBe(0);
  });

  it("puts each part's woken stages in index order within its own stretch, leaving the other part's alone", () => {
    // Even stages are part 0, odd ones part 1; part 1's stretch of `ready` starts after part 0's.
    const size = 4096;
    const queue = new StageQueue(
      size,
      16,
      1,
      Uint8Array.from({ length: size }, (_, s) => s & 1),
    );
    const odd = [4001, 17, 2049, 33, 1, 4095, 999, 65, 3, 2047, 129, 1025];
    const even = [4000, 18, 2, 998];
    for (let k = 0; k < odd.length; k++) {
      queue.wake(odd[k], 0, 0, 0);
      if (k < even.length) queue.wake(even[k], 0, 0, 0);
    }
    queue.sortReady(1);
    const stretch = (part: number) => Array.from({ length: queue.count[part] }, (_, i) => queue.visit(part, i, 0));
    expect(stretch(1)).toEqual([...odd].sort((a, b) => a - b));
    expect(stretch(0)).toEqual(even);
  });

  it('re-arms a wake-up beyond the wheel at its horizon', () => {
    const queue = new StageQueue(4, 16, 1);
    queue.wake(0, 100, 0, 0);
    expect(run(queue, 0, 20)).toEqual(['15:0']);
  });

  it("puts a cycle's woken stages in index order, however many and in whatever order they were woken", () => {
    let seed = 7;
    const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    // From none to many stages, spread over the whole index range or (the last case) packed into
    // a corner of a large one.
    for (const [count, size, spread] of [
      [0, 8, 8],
      [1, 12, 12],
      [2, 16, 16],
      [5, 28, 28],
      [17, 76, 76],
      [40, 168, 168],
      [300, 1208, 1208],
      [2000, 8008, 8008],
      [20000, 80008, 80008],
      [100, 1 << 20, 200],
    ]) {
      const queue = new StageQueue(size, 16, 1);
      const woken = new Set<number>();
      while (woken.size < count) {
        const stage = Math.floor(random() * spread);
        woken.add(stage);
        queue.wake(stage, 0, 0, 0);
      }
      queue.sortReady(0);
      expect(Array.from(queue.ready.subarray(0, queue.count[0]))).toEqual([...woken].sort((a, b) => a - b));
    }
  });
});
