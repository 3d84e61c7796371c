import { DIRECTION_MINIMAL, DIRECTION_MINUS, DIRECTION_PLUS, LEG_DYNAMIC, LEG_STATIC, legWord, mulberry32, Torus } from '@weft/fabric-model';
import { provePairwise } from './route-override-verifier';
import { CutPair, RouteOverrideCompiler } from '@weft/fabric-model';
import { legFault } from './route-walk';
import { TorusFaults, TorusLinkFault } from '@weft/fabric-model';

/** Every leg of the repertoire: dynamic or static, each dimension minimal, plus or minus. */
const LEGS: number[] = [];
for (const kind of [LEG_DYNAMIC, LEG_STATIC])
  for (const x of [DIRECTION_MINIMAL, DIRECTION_PLUS, DIRECTION_MINUS])
    for (const y of [DIRECTION_MINIMAL, DIRECTION_PLUS, DIRECTION_MINUS])
      for (const z of [DIRECTION_MINIMAL, DIRECTION_PLUS, DIRECTION_MINUS]) LEGS.push(legWord(kind, [x, y, z]));

/** The cut pairs by brute force: no leg of the repertoire from s to t, and no live relay r with one from s to r and one from r to t. */
function bruteForceCut(torus: Torus, faults: TorusFaults): string[] {
  const n = torus.size;
  const valid = new Uint8Array(n * n);
  for (let a = 0; a < n; a++) {
    if (faults.deadNode[a]) continue;
    for (let b = 0; b < n; b++) if (b !== a && !faults.deadNode[b] && LEGS.some((leg) => !legFault(torus, faults, leg, a, b))) valid[a * n + b] = 1;
  }
  const cut: string[] = [];
  for (let s = 0; s < n; s++) {
    if (faults.deadNode[s]) continue;
    for (let t = 0; t < n; t++) {
      if (t === s || faults.deadNode[t] || valid[s * n + t]) continue;
      let relayed = false;
      for (let r = 0; r < n && !relayed; r++) if (valid[s * n + r] && valid[r * n + t]) relayed = true;
      if (!relayed) cut.push(`${s}>${t}`);
    }
  }
  return cut;
}

const names = (cut: readonly CutPair[]) => cut.map((c) => `${c.source}>${c.destination}`).sort();

function compileAndProve(torus: Torus, faults: TorusFaults) {
  const overrides = new RouteOverrideCompiler(torus, faults).compile();
  const proof = provePairwise(torus, faults, overrides.tables);
  return { overrides, proof };
}

describe('BlueGene/L routing around dead nodes in software (paper 002 §2, spec §1.6)', () => {
  it('a single dead node in a midplane: every live pair is connected and no chosen route meets it', () => {
    const torus = new Torus([8, 8, 8]);
    const faults = new TorusFaults(torus, [torus.index(3, 4, 5)]);
    const { overrides, proof } = compileAndProve(torus, faults);
    expect(proof.problems).toEqual([]);
    expect(proof.cut).toEqual([]);
    expect(proof.pairs).toBe(511 * 511);
    // Every live node needs entries (some of its destinations' hint boxes hold the dead node), and
    // a handful of boxes serve each: the table is kept by regions, not by destination.
    const counts = overrides.tables.filter((t): t is number[] => t !== null).map((t) => t[1]);
    expect(Math.min(...counts)).toBeGreaterThan(0);
    expect(counts.reduce((a, b) => a + b, 0) / counts.length).toBeLessThan(12);
  });

  it('exhaustively on 4×4×4: every set of up to three dead nodes not all on one line leaves every live pair connected', () => {
    // The torus looks the same from every node and the compiler works relative to each source, so
    // every fault set is a translate of one that holds node 0: those are all of them, up to translation.
    const torus = new Torus([4, 4, 4]);
    let sets = 0;
    const failures: string[] = [];
    const check = (dead: number[]) => {
      if (dead.length === 3 && torus.colinear(dead)) return;
      sets++;
      const faults = new TorusFaults(torus, dead);
      const { proof } = compileAndProve(torus, faults);
      if (proof.problemCount > 0 || proof.cut.length > 0)
        failures.push(`${dead.map((n) => torus.name(n)).join(' ')}: ${proof.problems[0] ?? `${proof.cut.length} cut pairs`}`);
    };
    check([0]);
    for (let a = 1; a < 64; a++) {
      check([0, a]);
      for (let b = a + 1; b < 64; b++) check([0, a, b]);
    }
    expect(failures.slice(0, 5)).toEqual([]);
    expect(sets).toBe(1 + 63 + (63 * 62) / 2 - 9);
  });

  it('three dead nodes on one line: the pairs reported cut are exactly those a brute-force search of the repertoire finds cut', () => {
    for (const shape of [
      [4, 4, 4],
      [4, 4, 2],
      [3, 4, 2],
    ]) {
      const torus = new Torus(shape);
      for (let d = 0; d < 3; d++) {
        if (torus.shape[d] < 3) continue;
        const line = [0, 1, 2].map((c) => torus.withCoordinate(0, d, c));
        const faults = new TorusFaults(torus, line);
        const { overrides, proof } = compileAndProve(torus, faults);
        expect(proof.problems).toEqual([]);
        expect(names(proof.cut)).toEqual(bruteForceCut(torus, faults).sort());
        expect(names(overrides.cut)).toEqual(names(proof.cut));
      }
    }
  });

  it('seeded heavier fault sets of dead nodes and dead links on small tori: routes avoid every fault and the cut pairs equal the brute force', () => {
    const random = mulberry32(36);
    const shapes = [
      [4, 4, 4],
      [3, 3, 3],
      [5, 4, 3],
      [4, 2, 2],
      [6, 4, 2],
    ];
    let withCuts = 0;
    for (let trial = 0; trial < 40; trial++) {
      const torus = new Torus(shapes[trial % shapes.length]);
      const dead = Array.from({ length: 1 + Math.floor(random() * 10) }, () => Math.floor(random() * torus.size));
      const links: TorusLinkFault[] = [];
      for (let i = Math.floor(random() * 8); i > 0; i--) {
        const node = Math.floor(random() * torus.size);
        const direction = Math.floor(random() * 6);
        links.push({ node, direction });
        // Half the time the cable is dead both ways.
        if (random() < 0.5) links.push({ node: torus.neighbour(node, direction), direction: direction ^ 1 });
      }
      // Every fourth set also silences one node's six outgoing links: it hears but cannot be heard.
      if (trial % 4 === 0) {
        const mute = Math.floor(random() * torus.size);
        for (let direction = 0; direction < 6; direction++) links.push({ node: mute, direction });
      }
      const faults = new TorusFaults(torus, dead, links);
      const { overrides, proof } = compileAndProve(torus, faults);
      expect(proof.problems).toEqual([]);
      const expected = bruteForceCut(torus, faults).sort();
      expect(names(proof.cut)).toEqual(expected);
      expect(names(overrides.cut)).toEqual(expected);
      if (expected.length > 0) withCuts++;
    }
    // The comparison means something only if some sets do cut pairs.
    expect(withCuts).toBeGreaterThan(3);
  });
});
