import { FLAT_PACKAGING } from './flat-design';
import { compareNetworkCosts, costPlotSpec, costReport, flatDesignCost, PAPER_COST_ASSUMPTIONS } from './network-cost';

const byTopology = (n: number) => Object.fromEntries(compareNetworkCosts(n).map((t) => [t.topology, t]));

describe('the cost and power report (paper 003 §4.3, §5.3)', () => {
  it('counts 992 router links for the 1,024-node flattened butterfly against 2,048 for the folded Clos of radix-64 routers (§4.3)', () => {
    const t = byTopology(1024);
    expect(t['flattened butterfly']).toMatchObject({ shape: '32-ary 2-flat', routers: 32, interRouterChannels: 992 });
    expect(t['folded Clos']).toMatchObject({ shape: '2-level folded Clos', routers: 48, interRouterChannels: 2048 });
    // Cost and power per node stated for both; the flattened butterfly's roughly a third less and half the power.
    expect(t['flattened butterfly'].dollarsPerNode).toBeCloseTo(42.09, 2);
    expect(t['folded Clos'].dollarsPerNode).toBeCloseTo(66.51, 2);
    expect(t['flattened butterfly'].wattsPerNode).toBeCloseTo(2.03, 2);
    expect(t['folded Clos'].wattsPerNode).toBeCloseTo(4.04, 2);
  });

  it('reproduces §4.3’s comparison: the flattened butterfly about 30–60% cheaper than the folded Clos, the butterfly cheapest for 1K < N ≤ 4K, the hypercube dearest', () => {
    for (let n = 1024; n <= 65536; n *= 2) {
      const t = byTopology(n);
      const saving = 1 - t['flattened butterfly'].dollarsPerNode / t['folded Clos'].dollarsPerNode;
      expect(saving).toBeGreaterThan(0.28);
      expect(saving).toBeLessThan(0.6);
      expect(t.hypercube.dollarsPerNode).toBeGreaterThan(t['folded Clos'].dollarsPerNode);
      expect(t.hypercube.wattsPerNode).toBeGreaterThan(t['folded Clos'].wattsPerNode);
      if (n > 1024 && n <= 4096) expect(t.butterfly.dollarsPerNode).toBeLessThan(t['flattened butterfly'].dollarsPerNode);
    }
    // §4.3: at 4K the flattened butterfly costs about half the folded Clos (the Clos needs a third level, the flattened butterfly a second dimension).
    const at4k = byTopology(4096);
    expect(1 - at4k['flattened butterfly'].dollarsPerNode / at4k['folded Clos'].dollarsPerNode).toBeGreaterThan(0.5);
  });

  it("adds the folded Clos's third stage from 1K to 2K nodes of radix-64 routers, about $60 a node (§4.3, issue 57)", () => {
    expect(byTopology(1024)['folded Clos'].shape).toBe('2-level folded Clos');
    const at2k = byTopology(2048)['folded Clos'];
    expect(at2k).toMatchObject({ shape: '3-level folded Clos', interRouterChannels: 4 * 2048 });
    expect(at2k.dollarsPerNode - byTopology(1024)['folded Clos'].dollarsPerNode).toBeGreaterThan(45);
    // §4.3: "greater than 40%" cheaper above 1K.
    expect(1 - byTopology(2048)['flattened butterfly'].dollarsPerNode / at2k.dollarsPerNode).toBeGreaterThan(0.4);
  });

  it('costs a design cable by cable: a cable past 6 m takes a repeater, a backplane channel none', () => {
    const d = flatDesignCost({ k: 16, n: 4, radix: 64, spareUse: 'unused', packaging: FLAT_PACKAGING });
    expect(d.interRouterChannels).toBe(4096 * 45);
    const cables = d.links.filter((l) => l.kind === 'cable');
    // Dimension 1 within a pair of cabinets: short, no repeaters; dimensions 2 and 3 across the floor: some.
    expect(cables.find((l) => l.where === 'dimension 1')).toMatchObject({ repeaters: 0 });
    expect(cables.find((l) => l.where === 'dimension 3')!.repeaters).toBeGreaterThan(1);
    expect(d.links.filter((l) => l.kind === 'backplane').every((l) => l.repeaters === 0 && l.meters === 0)).toBe(true);
    const sum = d.links.reduce((s, l) => s + l.dollars, 0);
    expect(d.dollarsPerNode).toBeCloseTo((sum + 4096 * PAPER_COST_ASSUMPTIONS.routerDollars) / 65536, 6);
  });

  it('reports at the design’s N, prints every open assumption, and plots cost and power per node from 128 to 64K', () => {
    const r = costReport({ design: { k: 32, n: 2, radix: 64, spareUse: 'redundant', packaging: FLAT_PACKAGING } });
    expect(r.terminals).toBe(1024);
    // The 64th port doubles 16 channel pairs: 32 more router links.
    expect(r.design!.interRouterChannels).toBe(992 + 32);
    expect(r.notes.join('\n')).toMatch(/3 differential signals/);
    expect(r.notes.join('\n')).toMatch(/backplane: every terminal link/);
    expect(r.curve).toHaveLength(4 * 10);
    expect(JSON.stringify(costPlotSpec(r))).toContain('"dollarsPerNode"');
    expect(() => costReport({ terminals: 1 })).toThrow(/2 to 1048576 terminals, got 1/);
  });
});
