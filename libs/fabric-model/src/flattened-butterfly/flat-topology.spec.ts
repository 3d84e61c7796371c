import { flatCoordinate, flatDifferingDimensions, flatFigures, flatGrid, flatPeer, flatPeers, sizeFlattenedButterfly } from './flat-topology';

describe('the k-ary n-flat (paper 003 §2.2, §5.1.2)', () => {
  it('connects routers by equation (1): in the 2-ary 4-flat of Fig. 1(d), R4′ reaches R5′ in dimension 1, R6′ in 2 and R0′ in 3', () => {
    const grid = flatGrid({ k: 2, n: 4 });
    expect([flatPeer(grid, 4, 1, 1), flatPeer(grid, 4, 2, 1), flatPeer(grid, 4, 3, 0)]).toEqual([5, 6, 0]);
    expect(flatPeers(grid, 4)).toEqual([[5], [6], [0]]);
  });

  it('joins every router to the k − 1 others of each dimension that differ from it in that coordinate alone, both ways', () => {
    const shape = { k: 4, n: 3 };
    const grid = flatGrid(shape);
    const { routers, radix, cables } = flatFigures(shape);
    let ends = 0;
    for (let i = 0; i < routers; i++) {
      const peers = flatPeers(grid, i);
      // k terminals and k − 1 peers a dimension: the radix.
      expect(shape.k + peers.flat().length).toBe(radix);
      peers.forEach((list, d) =>
        list.forEach((j) => {
          expect(flatDifferingDimensions(grid, i, j)).toEqual([d + 1]);
          expect(flatPeers(grid, j)[d]).toContain(i);
          ends++;
        }),
      );
    }
    expect(ends / 2).toBe(cables);
    expect(flatCoordinate(grid, 13, 2)).toBe(3);
  });

  it('grows along a dimension as Fig. 14(b) does: a 5-router dimension of 4-terminal routers, mixed with a 3-router one', () => {
    const grid = { k: 4, sizes: [5, 3] };
    // Router 7 sits at (2, 1): its dimension-1 peers are the other four of its row, its dimension-2 peers the two of its column.
    expect(flatPeers(grid, 7)).toEqual([
      [5, 6, 8, 9],
      [2, 12],
    ]);
    expect(flatDifferingDimensions(grid, 7, 13)).toEqual([1, 2]);
  });

  it('has Table 4’s figures for N = 4K (its last row’s k′ of 12 is the formula’s 13: n(k − 1) + 1 with k = 2, n = 12)', () => {
    const rows = [
      [64, 2, 127, 1],
      [16, 3, 46, 2],
      [8, 4, 29, 3],
      [4, 6, 19, 5],
      [2, 12, 13, 11],
    ];
    for (const [k, n, radix, dimensions] of rows) expect(flatFigures({ k, n })).toMatchObject({ terminals: 4096, radix, dimensions });
    // §5.3: a 1K network of 32-ary 2-flat needs 31 × 32 = 992 links between routers (one a direction).
    expect(flatFigures({ k: 32, n: 2 }).channels).toBe(992);
  });

  it('sizes a network from a router radix as §5.1.2 does, leaving spare ports', () => {
    expect(sizeFlattenedButterfly(64, 1024)).toEqual({ dimensions: 1, k: 32, effectiveRadix: 63, sparePorts: 1, capacity: 1024 });
    expect(sizeFlattenedButterfly(64, 65536)).toEqual({ dimensions: 3, k: 16, effectiveRadix: 61, sparePorts: 3, capacity: 65536 });
    // 2K to 9,261 terminals: two dimensions of 21.
    expect(sizeFlattenedButterfly(64, 2048)).toMatchObject({ dimensions: 2, k: 21, effectiveRadix: 61 });
    expect(sizeFlattenedButterfly(64, 9261)).toMatchObject({ dimensions: 2, k: 21 });
    // Fig. 14: a 4-ary 2-flat needs radix 7; a radix-8 router has a port to spare.
    expect(sizeFlattenedButterfly(8, 16)).toEqual({ dimensions: 1, k: 4, effectiveRadix: 7, sparePorts: 1, capacity: 16 });
    expect(() => sizeFlattenedButterfly(5, 1000)).toThrow(/radix-5 routers cannot reach 1000 terminals/);
    expect(() => flatFigures({ k: 1, n: 3 })).toThrow(/k ≥ 2/);
  });
});
