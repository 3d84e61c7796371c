import { TimingWheel } from './timing-wheel';

describe('TimingWheel (credit returns and other timed events)', () => {
  it('fires every event at its cycle, including those scheduled while firing that make its pool grow', () => {
    const wheel = new TimingWheel(16, 2); // two pooled entries: the third event grows the pool
    const fired: string[] = [];
    wheel.schedule(0, 3, 1, 10);
    wheel.schedule(0, 3, 2, 20);
    for (let now = 1; now <= 12; now++) {
      wheel.fire(now, (a, b) => {
        fired.push(`${now}:${a}/${b}`);
        // Each event of cycle 3 schedules two more, each of those one more: the pool grows mid-fire.
        if (a < 100) {
          wheel.schedule(now, now + 2, a * 100, b + 1);
          wheel.schedule(now, now + 5, a * 100 + 1, b + 2);
        } else if (a < 10_000) wheel.schedule(now, now + 1, a * 100, b);
      });
    }
    expect(fired.sort()).toEqual(
      ['3:1/10', '3:2/20', '5:100/11', '5:200/21', '6:10000/11', '6:20000/21', '8:101/12', '8:201/22', '9:10100/12', '9:20100/22'].sort(),
    );
    expect(wheel.pending).toBe(0);
  });

  it('refuses an event outside its horizon, and leaves what it holds as it was', () => {
    const wheel = new TimingWheel(8);
    wheel.schedule(0, 5, 7, 1);
    expect(() => wheel.schedule(0, 8, 1, 1)).toThrow(/outside the wheel's horizon of 8/);
    expect(() => wheel.schedule(4, 4, 1, 1)).toThrow(/outside the wheel's horizon/);
    const fired: number[] = [];
    for (let now = 1; now < 8; now++) wheel.fire(now, (a) => fired.push(a));
    expect(fired).toEqual([7]);
    expect(wheel.pending).toBe(0);
  });
});
