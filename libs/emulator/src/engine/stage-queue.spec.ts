import { StageQueue } from './stage-queue';
import { TimingWheel } from './timing-wheel';

/** Runs `cycles` cycles of one queue evaluated in phase 1; returns which stages were visited when. */
function run(queue: StageQueue, wheel: TimingWheel, from: number, cycles: number, onVisit: (stage: number, now: number) => void = () => undefined): string[] {
  const visits: string[] = [];
  for (let now = from; now < from + cycles; now++) {
    wheel.fire(now, (a) => queue.fired(a >>> 2, now, 0));
    for (let i = 0; i < queue.count; i++) {
      const stage = queue.visit(i, now);
      visits.push(`${now}:${stage}`);
      onVisit(stage, now);
    }
    queue.count = 0;
  }
  return visits;
}

describe('StageQueue (stage wake-ups on the timing wheel)', () => {
  it('visits a stage once per cycle however often it is woken for that cycle, and at each future wake-up', () => {
    const wheel = new TimingWheel(64);
    const queue = new StageQueue(8, wheel, 1, 1);
    queue.wake(3, 0, 0, 0);
    queue.wake(3, 0, 0, 0);
    queue.wake(5, 2, 0, 0);
    expect(run(queue, wheel, 0, 4)).toEqual(['0:3', '2:5']);
    expect(wheel.pending).toBe(0);
  });

  it('drops a wake-up later than one already pending, and one an earlier wake-up replaced: the earlier visit re-arms', () => {
    const arm = () => {
      const wheel = new TimingWheel(64);
      const queue = new StageQueue(8, wheel, 1, 1);
      queue.wake(2, 10, 0, 0);
      queue.wake(2, 15, 0, 0);
      queue.wake(2, 4, 0, 0);
      expect(wheel.pending).toBe(2);
      return { wheel, queue };
    };
    const quiet = arm();
    expect(run(quiet.queue, quiet.wheel, 0, 20)).toEqual(['4:2']);
    // A visit that re-arms for cycle 10 is visited then, once.
    const rearming = arm();
    expect(run(rearming.queue, rearming.wheel, 0, 20, (stage, now) => now === 4 && rearming.queue.wake(stage, 10, now, 1))).toEqual(['4:2', '10:2']);
    expect(rearming.wheel.pending).toBe(0);
  });

  it('defers to the next cycle a wake-up for now that comes after its phase or after its visit', () => {
    const wheel = new TimingWheel(64);
    const queue = new StageQueue(8, wheel, 1, 1);
    queue.wake(1, 0, 0, 2); // phase 2 is past this queue's phase 1
    queue.wake(4, 0, 0, 0);
    // Stage 4 wakes itself again while being visited: once more, in the next cycle.
    expect(run(queue, wheel, 0, 3, (stage, now) => stage === 4 && now === 0 && queue.wake(4, now, now, 1)).sort()).toEqual(['0:4', '1:1', '1:4']);
  });

  it('re-arms a wake-up beyond the wheel at its horizon', () => {
    const wheel = new TimingWheel(16);
    const queue = new StageQueue(4, wheel, 1, 1);
    queue.wake(0, 100, 0, 0);
    expect(run(queue, wheel, 0, 20)).toEqual(['15:0']);
  });

  it("puts a cycle's woken stages in index order, however many and in whatever order they were woken", () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    for (const count of [0, 1, 2, 5, 17, 40, 300, 2000]) {
      const size = 4 * count + 8;
      const queue = new StageQueue(size, new TimingWheel(16), 1, 1);
      const woken = new Set<number>();
      while (woken.size < count) {
        const stage = Math.floor(random() * size);
        woken.add(stage);
        queue.wake(stage, 0, 0, 0);
      }
      queue.sortReady();
      expect(Array.from(queue.ready.subarray(0, queue.count))).toEqual([...woken].sort((a, b) => a - b));
    }
  });
});
