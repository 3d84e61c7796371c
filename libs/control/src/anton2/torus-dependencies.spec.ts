import { defaultDatelines, Torus } from '@weft/fabric-model';
import { torusDependencies } from './torus-dependencies';

describe("Anton 2's torus channel dependencies with VC promotion (paper 004 §2.5), by brute force", () => {
  it('minimal dimension-ordered routes with coinciding datelines need four VCs and make no cycle, on rings of 4, 5 and 6', () => {
    for (const shape of [
      [4, 4, 4],
      [5, 5, 5],
      [6, 4, 2],
    ]) {
      const torus = new Torus(shape);
      const report = torusDependencies(torus, defaultDatelines(torus));
      expect({ shape, acyclic: report.acyclic, cycle: report.cycle }).toEqual({ shape, acyclic: true, cycle: null });
      expect(report.maxVc).toBe(3);
      expect(report.dependencies).toBeGreaterThan(0);
    }
  });

  it('with one VC a class instead of four, a cycle around a ring appears, and it is shown', () => {
    const torus = new Torus([5, 4, 2]);
    const report = torusDependencies(torus, defaultDatelines(torus), { vcsPerClass: 1 });
    expect(report.acyclic).toBe(false);
    const cycle = report.cycle!;
    expect(cycle[0]).toBe(cycle[cycle.length - 1]);
    expect(cycle.every((c) => c.endsWith('/0'))).toBe(true);
  });
});
