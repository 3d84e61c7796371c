import { hardwareHintSign, hintBits, Torus } from '@weft/fabric-model';
import { computeHintRegisters, proveHintRegisters } from './hint-registers';

describe('BlueGene/L hint registers (paper 002 §2: "These registers can be configured to provide minimal hop routing")', () => {
  it('give minimal hints on odd, even, asymmetric and two-node rings, with either tie rule', () => {
    for (const shape of [
      [8, 8, 8],
      [64, 32, 32],
      [5, 7, 3],
      [2, 6, 9],
    ]) {
      for (const tieRule of ['plus', 'source-parity'] as const) {
        const torus = new Torus(shape, tieRule);
        const proof = proveHintRegisters(torus, computeHintRegisters(torus));
        expect({ shape, tieRule, problems: proof.problems }).toEqual({ shape, tieRule, problems: [] });
      }
    }
  });

  it('on an even ring the tie half way round goes the way the rule says', () => {
    const plus = new Torus([8, 8, 8], 'plus');
    const parity = new Torus([8, 8, 8], 'source-parity');
    const regs = computeHintRegisters(plus);
    const odd = computeHintRegisters(parity);
    const node = plus.index(3, 0, 0);
    expect(hardwareHintSign(3, 7, regs.cutoffPlus[3 * node], regs.cutoffMinus[3 * node], 8)).toBe(1);
    expect(hardwareHintSign(3, 7, odd.cutoffPlus[3 * node], odd.cutoffMinus[3 * node], 8)).toBe(-1);
    // §2's example: x+ and y− are the bits 100100.
    expect(hintBits([1, -1, 0]).toString(2)).toBe('100100');
  });

  it('a register pair leaving a gap, or a neighbour register naming the wrong node, is found and named', () => {
    const torus = new Torus([8, 4, 4]);
    const regs = computeHintRegisters(torus);
    const node = torus.index(2, 1, 1);
    regs.cutoffPlus[3 * node] = 4; // x+ reaches only 3 and 4: 5 and 6 are in neither set
    regs.neighbours[6 * node + 2] = torus.index(2, 3, 1); // y+ names the y− neighbour
    const proof = proveHintRegisters(torus, regs);
    expect(proof.problems).toEqual([
      'node (2,1,1): for x = 5 the hint registers give no hint, minimal is x+',
      'node (2,1,1): for x = 6 the hint registers give no hint, minimal is x+',
      'node (2,1,1): the y+ neighbour register names (2,3,1), the neighbour is (2,2,1)',
    ]);
  });
});
