import { ANTON2_ORDERS, anton2ChannelPort, Torus } from '@weft/fabric-model';
import { anton2RoutePolicy } from './anton2-route-policy';

/** Every way the hardware may route s → t in (order, slice) under random ties: the channels (node:port) each way uses. */
function ways(torus: Torus, s: number, t: number, order: readonly number[], slice: number): string[][] {
  let paths: { at: number; used: string[] }[] = [{ at: s, used: [] }];
  for (const d of order) {
    const k = torus.shape[d];
    const ahead = (((torus.coordinate(t, d) - torus.coordinate(s, d)) % k) + k) % k;
    if (ahead === 0) continue;
    const signs = 2 * ahead < k ? [1] : 2 * ahead > k ? [-1] : [1, -1];
    const next: typeof paths = [];
    for (const p of paths)
      for (const sign of signs) {
        let at = p.at;
        const used = [...p.used];
        const steps = sign > 0 ? ahead : k - ahead;
        for (let h = 0; h < steps; h++) {
          used.push(`${at}:${anton2ChannelPort(d, sign < 0, slice)}`, `node ${at}`);
          at = torus.neighbour(at, 2 * d + (sign < 0 ? 1 : 0));
        }
        used.push(`node ${at}`);
        next.push({ at, used });
      }
    paths = next;
  }
  return paths.map((p) => p.used);
}

describe('Anton 2 route policy around faults', () => {
  it('allows exactly the (order, slice) combinations whose every route avoids the dead channels and ASICs, pair by pair', () => {
    const torus = new Torus([4, 5, 2]);
    const deadChannels = [
      { node: torus.index(1, 2, 0), port: anton2ChannelPort(1, false, 0) },
      { node: torus.index(3, 0, 1), port: anton2ChannelPort(0, true, 1) },
      { node: torus.index(0, 4, 1), port: anton2ChannelPort(2, false, 0) },
    ];
    const deadNode = torus.index(2, 3, 1);
    const policy = anton2RoutePolicy(torus, deadChannels, [deadNode], 'random');
    const deadSet = new Set(deadChannels.map((c) => `${c.node}:${c.port}`));
    const wrong: string[] = [];
    let unreachable = 0;
    for (let s = 0; s < torus.size; s++)
      for (let t = 0; t < torus.size; t++) {
        if (s === t || s === deadNode || t === deadNode) continue;
        let mask = 0;
        for (let combo = 0; combo < 12; combo++) {
          const clean = ways(torus, s, t, ANTON2_ORDERS[combo >> 1], combo & 1).every((used) => used.every((u) => !deadSet.has(u) && u !== `node ${deadNode}`));
          if (clean) mask |= 1 << combo;
        }
        const got = policy.masks.get(s)?.[t] ?? 0xfff;
        if (got !== mask) wrong.push(`${torus.name(s)} → ${torus.name(t)}: ${got.toString(2)} instead of ${mask.toString(2)}`);
        if (mask === 0) unreachable++;
      }
    expect(wrong).toEqual([]);
    expect(policy.unreachable).toHaveLength(unreachable);
  });
});
