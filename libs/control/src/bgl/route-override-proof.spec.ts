import { mulberry32, Torus } from '@weft/fabric-model';
import { proveByClasses } from './route-override-proof';
import { provePairwise } from './route-override-verifier';
import { RouteOverrideCompiler } from '@weft/fabric-model';
import { TorusFaults, TorusLinkFault } from '@weft/fabric-model';

// Read once: under the test runner every global look-up goes through a proxy.
const { floor } = Math;

describe('BlueGene/L route-override tables proven by classes of destinations (the 64K machine cannot be walked pair by pair)', () => {
  it('agrees with the pair-by-pair proof on seeded fault sets of nodes and links: no problem, and the same number of cut pairs', () => {
    const random = mulberry32(361);
    const shapes = [
      [4, 4, 4],
      [5, 4, 3],
      [6, 4, 2],
      [8, 8, 8],
    ];
    for (let trial = 0; trial < 24; trial++) {
      const torus = new Torus(shapes[trial % shapes.length]);
      const dead = Array.from({ length: 1 + floor(random() * 6) }, () => floor(random() * torus.size));
      const links: TorusLinkFault[] = [];
      for (let i = floor(random() * 6); i > 0; i--) links.push({ node: floor(random() * torus.size), direction: floor(random() * 6) });
      if (trial % 4 === 1) for (let direction = 0; direction < 6; direction++) links.push({ node: floor(random() * torus.size), direction });
      const faults = new TorusFaults(torus, dead, links);
      const { tables } = new RouteOverrideCompiler(torus, faults).compile();
      const pairwise = provePairwise(torus, faults, tables);
      const classes = proveByClasses(torus, faults, tables);
      expect({ trial, problems: classes.problems, cut: classes.cutPairs }).toEqual({ trial, problems: [], cut: pairwise.cut.length });
    }
  });

  it('a table with an entry taken out, or a candidate changed to one that meets the fault, is caught and named', () => {
    const torus = new Torus([8, 8, 8]);
    const faults = new TorusFaults(torus, [torus.index(3, 3, 3)]);
    const { tables } = new RouteOverrideCompiler(torus, faults).compile();
    const s = torus.index(1, 3, 3);
    const words = [...tables[s]!];
    // Drop the last entry: its destinations take the hardware's route, into the dead node's shadow.
    const dropped = [...words];
    let at = 2;
    for (let e = 0; e < words[1] - 1; e++) at += 7 + 5 * words[at + 6];
    dropped.splice(at);
    dropped[1]--;
    const withoutEntry = proveByClasses(
      torus,
      faults,
      tables.map((t, i) => (i === s ? dropped : t)),
    );
    expect(withoutEntry.problems.some((p) => p.startsWith('(1,3,3): destinations') && p.includes('the dead node (3,3,3)'))).toBe(true);
    // Every candidate made the static minimal route, which runs straight through (3,3,3).
    const blunt = [...words];
    at = 2;
    for (let e = 0; e < blunt[1]; e++) {
      for (let c = 0; c < blunt[at + 6]; c++) blunt.splice(at + 7 + 5 * c, 5, 1, -1, 0, 0, 0);
      at += 7 + 5 * blunt[at + 6];
    }
    const through = proveByClasses(
      torus,
      faults,
      tables.map((t, i) => (i === s ? blunt : t)),
    );
    expect(through.problems.some((p) => p.includes('candidate 0 meets the dead node (3,3,3)'))).toBe(true);
  });
});
