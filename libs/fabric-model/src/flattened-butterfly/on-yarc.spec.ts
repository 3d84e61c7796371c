import { yarcPortsFit, yarcRoutingRefusal, yarcTableFit } from './on-yarc';

describe('what YARC can run of a flattened butterfly (paper 003 §6; spec §4.2)', () => {
  it('says plainly that the routing table cannot express the 32-ary 2-flat’s 31-peer dimension', () => {
    const fit = yarcTableFit({ k: 32, sizes: [32] });
    expect(fit).toMatchObject({ entriesNeeded: 31, entries: 8, expressible: false });
    expect(fit.reason).toMatch(/8 entries a tile, one a peer router .*its dimension has 31 peers, 31 entries — the table cannot express it/);
  });

  it('routes by table at most a one-dimensional flattened butterfly of 9 routers: BlackWidow’s 288-processor Rank 1.5', () => {
    expect(yarcTableFit({ k: 32, sizes: [9] }).expressible).toBe(true);
    expect(yarcTableFit({ k: 32, sizes: [10] }).expressible).toBe(false);
    expect(yarcTableFit({ k: 4, sizes: [4, 4] })).toMatchObject({ entriesNeeded: 6, expressible: true });
  });

  it('runs dimension order on one VC a class and refuses what needs more, naming the VCs', () => {
    expect(yarcRoutingRefusal('min', 3)).toBeNull();
    expect(yarcRoutingRefusal('min-ad', 1)).toBeNull();
    expect(yarcRoutingRefusal('min-ad', 2)).toMatch(/^min-ad needs 2 VCs a traffic class on 2 dimensions .* YARC has 2 VCs a port — one a class/);
    expect(yarcRoutingRefusal('ugal', 1)).toMatch(/^ugal needs 2 VCs a traffic class on 1 dimension \(paper 003 §3.1\)/);
  });

  it('fits the 32-ary 2-flat and the 16-ary 4-flat in YARC’s 64 ports, not the 64-ary 2-flat', () => {
    expect(yarcPortsFit({ k: 32, sizes: [32] })).toBeNull();
    expect(yarcPortsFit({ k: 16, sizes: [16, 16, 16] })).toBeNull();
    expect(yarcPortsFit({ k: 64, sizes: [64] })).toMatch(/uses 127 ports; YARC has 64/);
  });
});
