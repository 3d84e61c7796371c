import { EventWheel } from './event-wheel';

describe('EventWheel, the torus engines’ calendar', () => {
  it('finds the next cycle with an event, within the horizon and before a limit, or the limit when there is none', () => {
    const wheel = new EventWheel(64);
    expect(wheel.nextBusy(0, 500)).toBe(500);
    wheel.add(0, 5, 1, 0, 0, 0);
    wheel.add(0, 60, 1, 0, 0, 0);
    expect(wheel.nextBusy(0, 500)).toBe(5);
    expect(wheel.nextBusy(0, 4)).toBe(4);
    wheel.clear(5);
    expect(wheel.nextBusy(6, 500)).toBe(60);
    // An event added from a later present lies in a slot the wheel has come round to again.
    wheel.clear(60);
    wheel.add(61, 61 + 63, 1, 0, 0, 0);
    expect(wheel.nextBusy(61, 1000)).toBe(124);
    expect(() => wheel.add(61, 60, 1, 0, 0, 0)).toThrow('an event at cycle 60 is in the past of cycle 61');
  });

  it('keeps an event beyond its horizon until its cycle comes, found by nextBusy and counted as pending all along', () => {
    // Issue 56's soak: a link noisy enough that go-back-N resends a packet for longer than the
    // horizon threw BG/L's engine out of its run.
    const wheel = new EventWheel(64);
    wheel.add(0, 10, 1, 10, 0, 0);
    wheel.add(0, 300, 2, 300, 0, 0);
    wheel.add(0, 200, 3, 200, 0, 0);
    expect(wheel.pending).toBe(3);
    const seen: number[] = [];
    for (let t = 0; wheel.pending > 0;) {
      t = wheel.nextBusy(t, 1_000);
      for (let i = 0; i < wheel.count(t); i += 4) {
        seen.push(t, wheel.bucket(t)[i + 1]);
        // An event of the same cycle added as it runs joins it after those already there.
        if (t === 200 && i === 0) wheel.add(200, 200, 4, 201, 0, 0);
      }
      wheel.clear(t);
      t++;
    }
    expect(seen).toEqual([10, 10, 200, 200, 200, 201, 300, 300]);
    expect(wheel.nextBusy(301, 1_000)).toBe(1_000);
  });
});
