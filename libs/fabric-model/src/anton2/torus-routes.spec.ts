import { Torus } from '../torus/torus';
import { anton2ChannelName } from '../chips/anton2-asic';
import { ANTON2_ORDERS, anton2TorusRoute, defaultDatelines, minimalOffset } from './torus-routes';

describe("Anton 2's routes between ASICs (paper 004 §2.3, §2.5)", () => {
  const torus = new Torus([8, 8, 8]);
  const datelines = defaultDatelines(torus);

  it('go minimal in each dimension of the order, on the slice chosen, by the channels of that slice', () => {
    const from = torus.index(6, 1, 2);
    const to = torus.index(1, 1, 7);
    const { hops } = anton2TorusRoute(torus, from, to, [2, 0, 1], 1, datelines);
    // z: 2 → 7 is 3 hops −; x: 6 → 1 is 3 hops +; y: none.
    expect(hops.map((h) => anton2ChannelName(h.port))).toEqual(['Z1-', 'Z1-', 'Z1-', 'X1+', 'X1+', 'X1+']);
    expect(hops[hops.length - 1].to).toBe(to);
    expect(ANTON2_ORDERS).toHaveLength(6);
  });

  it('promote the VC when a dateline is crossed, or at the end of a dimension that crossed none: VC j after j dimensions', () => {
    // x 6 → 1 crosses the + dateline between 7 and 0 at its second hop; then z 2 → 7 going − crosses the − dateline (0 → 7) last.
    const { hops, exitVc } = anton2TorusRoute(torus, torus.index(6, 1, 2), torus.index(1, 1, 7), [0, 2, 1], 0, datelines);
    expect(hops.map((h) => h.vc)).toEqual([0, 1, 1, 1, 1, 2]);
    expect(exitVc).toBe(2);
    // No dateline crossed: promoted at each dimension's end.
    const plain = anton2TorusRoute(torus, torus.index(1, 1, 1), torus.index(2, 2, 2), [0, 1, 2], 0, datelines);
    expect(plain.hops.map((h) => h.vc)).toEqual([0, 1, 2]);
    expect(plain.exitVc).toBe(3);
  });

  it('an offset of half a ring goes as the tie rule says', () => {
    expect(minimalOffset(8, 3, 7, 'plus')).toEqual({ steps: 4, sign: 1 });
    expect(minimalOffset(8, 3, 7, 'source-parity')).toEqual({ steps: 4, sign: -1 });
    expect(minimalOffset(8, 2, 6, 'source-parity')).toEqual({ steps: 4, sign: 1 });
    expect(minimalOffset(5, 1, 4, 'plus')).toEqual({ steps: 2, sign: -1 });
  });
});
