/**
 * The hardware routing registers of a BlueGene/L node (paper 002 §2, spec §1.3 items 1 and 2): the
 * coordinates of its six neighbours, by which the hint bits clear, and the two hint registers per
 * dimension that make the hardware's hints minimal on any ring — odd, even, asymmetric — with the
 * tie half way round an even ring settled by the torus's tie rule. And their proof (spec §1.4 V1),
 * which reads only the registers: from every node, for every destination coordinate, the hardware's
 * hint is the minimal direction, and the neighbour registers name the node's true neighbours, so
 * that a packet's hints clear exactly on arrival in each dimension.
 */
import * as format from '@weft/fabric-model';
import type { Torus } from '@weft/fabric-model';

// Read once: a module's imports are getters under the test runner's module system.
const { hardwareHintSign, minimalHintCutoffs, TORUS_DIRECTIONS, TORUS_DIMENSION_NAMES } = format;

export interface HintRegisters {
  /** `cutoffPlus[3 * node + d]`, `cutoffMinus[3 * node + d]` (bgl-node.ts: hardwareHintSign). */
  readonly cutoffPlus: Int32Array;
  readonly cutoffMinus: Int32Array;
  /** `neighbours[6 * node + direction]`: the node the neighbour-coordinate register names. */
  readonly neighbours: Int32Array;
}

/** The minimal-routing hint registers and the neighbour registers of every node. */
export function computeHintRegisters(torus: Torus): HintRegisters {
  const n = torus.size;
  const cutoffPlus = new Int32Array(3 * n);
  const cutoffMinus = new Int32Array(3 * n);
  const neighbours = new Int32Array(6 * n);
  for (let node = 0; node < n; node++) {
    for (let d = 0; d < 3; d++) {
      const k = torus.shape[d];
      const s = torus.coordinate(node, d);
      // Half way round an even ring, the tie rule says which side the offset k/2 is on.
      const [plus, minus] = minimalHintCutoffs(s, k, torus.minimalSign(d, s, (s + (k >> 1)) % k) > 0);
      cutoffPlus[3 * node + d] = plus;
      cutoffMinus[3 * node + d] = minus;
    }
    for (let direction = 0; direction < 6; direction++) neighbours[6 * node + direction] = torus.neighbour(node, direction);
  }
  return { cutoffPlus, cutoffMinus, neighbours };
}

/**
 * What is wrong with a set of hint and neighbour registers, the first `max` problems and their
 * count: a destination coordinate the hardware would hint the long way or not at all, or a
 * neighbour register naming a node that is not the neighbour that way.
 */
export function proveHintRegisters(
  torus: Torus,
  registers: HintRegisters,
  max = 20,
  skip?: (node: number) => boolean,
): { problems: string[]; problemCount: number } {
  const problems: string[] = [];
  let problemCount = 0;
  const problem = (text: string) => {
    if (problems.length < max) problems.push(text);
    problemCount++;
  };
  for (let node = 0; node < torus.size; node++) {
    // A node without registers (a dead one) routes nothing.
    if (skip?.(node)) continue;
    for (let d = 0; d < 3; d++) {
      const k = torus.shape[d];
      const s = torus.coordinate(node, d);
      const plus = registers.cutoffPlus[3 * node + d];
      const minus = registers.cutoffMinus[3 * node + d];
      for (let t = 0; t < k; t++) {
        const hinted = hardwareHintSign(s, t, plus, minus, k);
        const minimal = torus.minimalSign(d, s, t);
        if (hinted !== minimal) {
          const way = (sign: number) => (sign === 0 ? 'no hint' : `${TORUS_DIMENSION_NAMES[d]}${sign > 0 ? '+' : '-'}`);
          problem(`node ${torus.name(node)}: for ${TORUS_DIMENSION_NAMES[d]} = ${t} the hint registers give ${way(hinted)}, minimal is ${way(minimal)}`);
        }
      }
    }
    for (let direction = 0; direction < 6; direction++) {
      const named = registers.neighbours[6 * node + direction];
      const actual = torus.neighbour(node, direction);
      if (named !== actual)
        problem(
          `node ${torus.name(node)}: the ${TORUS_DIRECTIONS[direction]} neighbour register names ${named >= 0 && named < torus.size ? torus.name(named) : named}, the neighbour is ${torus.name(actual)}`,
        );
    }
  }
  return { problems, problemCount };
}
