import { mulberry32 } from '@weft/fabric-model';
import { makePattern, PatternError, sizeSampler } from './patterns';

const all = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('traffic patterns: each has its defining property', () => {
  const random = mulberry32(11);

  it('random permutation: a bijection, the same for the same seed', () => {
    const p = makePattern({ kind: 'random-permutation' }, { endpoints: 288 }, 5);
    const image = all(288).map((s) => p.destination(s, random));
    const targets = image.map((d, s) => (d === -1 ? s : d));
    expect(new Set(targets).size).toBe(288);
    expect(image.filter((d) => d === -1).length).toBeLessThan(5); // fixed points send nothing
    const again = makePattern({ kind: 'random-permutation' }, { endpoints: 288 }, 5);
    expect(all(288).map((s) => again.destination(s, random))).toEqual(image);
    expect(all(288).map((s) => makePattern({ kind: 'random-permutation' }, { endpoints: 288 }, 6).destination(s, random))).not.toEqual(image);
  });

  it('bit complement and transpose: the address bits complemented, the halves swapped', () => {
    const c = makePattern({ kind: 'bit-complement' }, { endpoints: 1024 });
    expect(all(1024).every((s) => c.destination(s, random) === 1023 - s)).toBe(true);
    const t = makePattern({ kind: 'transpose' }, { endpoints: 1024 });
    expect(t.destination(0b00011_00101, random)).toBe(0b00101_00011);
    expect(t.destination(0b00101_00101, random)).toBe(-1); // on the diagonal: nothing to send
    const torus = makePattern({ kind: 'transpose' }, { endpoints: 64, torus: [8, 8] });
    expect(torus.destination(3 + 8 * 5, random)).toBe(5 + 8 * 3);
  });

  it('tornado: half way round each ring less one; reverse tornado undoes it', () => {
    const ring = makePattern({ kind: 'tornado' }, { endpoints: 16 });
    expect(all(16).map((s) => ring.destination(s, random))).toEqual(all(16).map((s) => (s + 7) % 16));
    const torus = { endpoints: 512, torus: [8, 8, 8] };
    const t = makePattern({ kind: 'tornado' }, torus);
    const r = makePattern({ kind: 'reverse-tornado' }, torus);
    // (1, 2, 7) → (4, 5, 2): +3 in every dimension of radix 8.
    expect(t.destination(1 + 8 * 2 + 64 * 7, random)).toBe(4 + 8 * 5 + 64 * 2);
    expect(all(512).every((s) => r.destination(t.destination(s, random), random) === s)).toBe(true);
  });

  it('n-hop neighbour: n steps along the first dimension of the torus', () => {
    const p = makePattern({ kind: 'neighbour', hops: 2 }, { endpoints: 64, torus: [8, 8] });
    expect(p.destination(7 + 8 * 3, random)).toBe(1 + 8 * 3);
  });

  it('hot region: the set fraction of packets (plus its uniform share) lands in the region', () => {
    const p = makePattern({ kind: 'hot-region', fraction: 0.25, first: 64, count: 32 }, { endpoints: 1024 });
    let inside = 0;
    let sent = 0;
    let toSelf = 0;
    for (let i = 0; i < 200_000; i++) {
      const s = (i * 7) % 1024;
      if (s >= 64 && s < 96) continue;
      const d = p.destination(s, random);
      sent++;
      if (d === s) toSelf++;
      if (d >= 64 && d < 96) inside++;
    }
    // 25% aimed at it, and 32 of the other 1023 endpoints for the uniform 75%.
    expect(toSelf).toBe(0);
    expect(inside / sent).toBeCloseTo(0.25 + 0.75 * (32 / 1023), 2);
  });

  it('all-to-all: in n-1 packets every source reaches every other endpoint exactly once', () => {
    const p = makePattern({ kind: 'all-to-all' }, { endpoints: 33 });
    for (const s of all(33)) {
      const seen = all(32).map(() => p.destination(s, random));
      expect(new Set(seen).size).toBe(32);
      expect(seen).not.toContain(s);
    }
  });

  it("adversarial (flattened butterfly §3.2): every endpoint of router i to one of router i+1's", () => {
    const p = makePattern({ kind: 'adversarial' }, { endpoints: 64, endpointsPerRouter: 8 });
    for (const s of all(64)) for (let k = 0; k < 20; k++) expect(Math.floor(p.destination(s, random) / 8)).toBe((Math.floor(s / 8) + 1) % 8);
  });

  it('traffic matrix: destinations in proportion to the weights; an empty row sends nothing', () => {
    const weights = [
      [0, 3, 1],
      [0, 0, 0],
      [1, 1, 0],
    ];
    const p = makePattern({ kind: 'matrix', weights }, { endpoints: 3 });
    const counts = [0, 0, 0];
    for (let i = 0; i < 40_000; i++) counts[p.destination(0, random)]++;
    expect(counts[1] / 40_000).toBeCloseTo(0.75, 1);
    expect(p.destination(1, random)).toBe(-1);
  });

  it('refuses what a fabric cannot have, saying why', () => {
    expect(() => makePattern({ kind: 'bit-complement' }, { endpoints: 288 })).toThrow(
      new PatternError('bit complement needs a power-of-two number of endpoints, got 288'),
    );
    expect(() => makePattern({ kind: 'neighbour', hops: 1 }, { endpoints: 288 })).toThrow(
      'the n-hop neighbour pattern needs a torus fabric (BlueGene/L, Anton 2)',
    );
    expect(() =>
      makePattern(
        {
          kind: 'matrix',
          weights: [
            [0, -1],
            [1, 0],
          ],
        },
        { endpoints: 2 },
      ),
    ).toThrow('traffic matrix [0][1] must be a non-negative number, got -1');
    expect(() => makePattern({ kind: 'hot-region', fraction: 1.5, first: 0, count: 4 }, { endpoints: 32 })).toThrow(
      'hot-region fraction must be 0..1, got 1.5',
    );
    expect(() => sizeSampler(20, { min: 4, max: 19 })).toThrow('packet size must be 4..19 phits, got 20');
  });

  it('packet sizes follow their distribution', () => {
    const size = sizeSampler(
      [
        { phits: 4, weight: 3 },
        { phits: 19, weight: 1 },
      ],
      { min: 4, max: 19 },
    );
    let long = 0;
    for (let i = 0; i < 40_000; i++) if (size(random) === 19) long++;
    expect(long / 40_000).toBeCloseTo(0.25, 1);
  });
});
