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
    expect(() => wheel.add(61, 61 + 64, 1, 0, 0, 0)).toThrow(/outside the horizon/);
  });
});
