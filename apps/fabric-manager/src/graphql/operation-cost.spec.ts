import { HeavyWorkCancelled, heavyWork, takeTurn } from './operation-cost';

/** Heavy work that holds the event loop for `ms` in all, giving it back at every turn. */
const busyFor = async (ms: number, done: string[], name: string) => {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    const spin = performance.now() + 1;
    while (performance.now() < spin);
    await takeTurn();
  }
  done.push(name);
  return name;
};

describe('heavy work taking turns (issue 54 §11)', () => {
  it('runs one client’s short work beside another’s long work, not after it', async () => {
    const done: string[] = [];
    const long = heavyWork(() => busyFor(400, done, 'A long'), { client: 'a' });
    const began = performance.now();
    const short = heavyWork(() => busyFor(5, done, 'B short'), { client: 'b' });
    await short;
    // First come first served it waited the whole 400 ms; taking turns, a few slices.
    expect(performance.now() - began).toBeLessThan(200);
    await long;
    expect(done).toEqual(['B short', 'A long']);
  });

  it('runs one client’s units one after another, whatever order the clients asked in', async () => {
    const done: string[] = [];
    await Promise.all([
      heavyWork(() => busyFor(30, done, 'a1'), { client: 'a' }),
      heavyWork(() => busyFor(5, done, 'a2'), { client: 'a' }),
      heavyWork(() => busyFor(5, done, 'b1'), { client: 'b' }),
    ]);
    expect(done.indexOf('a1')).toBeLessThan(done.indexOf('a2'));
    expect(done.indexOf('b1')).toBeLessThan(done.indexOf('a1'));
  });

  it('gives up work whose client went away, at its next turn, and work still waiting before it starts', async () => {
    const gone = new AbortController();
    const done: string[] = [];
    const running = heavyWork(() => busyFor(1_000, done, 'long'), { client: 'c', signal: gone.signal });
    const waiting = heavyWork(() => busyFor(5, done, 'next'), { client: 'c', signal: gone.signal });
    const began = performance.now();
    setTimeout(() => gone.abort(), 50);
    await expect(running).rejects.toBeInstanceOf(HeavyWorkCancelled);
    await expect(waiting).rejects.toBeInstanceOf(HeavyWorkCancelled);
    expect(performance.now() - began).toBeLessThan(500);
    expect(done).toEqual([]);
    // Others' work goes on.
    await expect(heavyWork(() => busyFor(5, done, 'other'), { client: 'd' })).resolves.toBe('other');
  });
});
