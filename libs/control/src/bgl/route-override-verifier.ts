/**
 * The proof of a BlueGene/L route-override configuration, pair by pair (spec §1.4, V2 and V3): for
 * every live source and destination, the route the source's software chooses from its table (the
 * node's own rule, route-override-table.ts) is walked over the torus — the hardware's dynamic
 * minimal route where no entry holds the destination, each leg of a relayed route — and must meet
 * no fault; a dead destination must be refused; a destination the table calls unreachable is a cut
 * pair. Independent of the compiler: it reads only the tables' words and walks (route-walk.ts).
 * Pair by pair is right for small tori and for tests; a machine of thousands of nodes is proven by
 * classes of pairs (bgl-verifier.ts).
 */
import * as format from '@weft/fabric-model';
import type { Torus } from '@weft/fabric-model';
import type { CutPair } from '@weft/fabric-model';
import { legFault } from './route-walk';
import type { TorusFaults } from '@weft/fabric-model';

// Read once: a module's imports are getters under the test runner's module system.
const { chooseRoute, HARDWARE_LEG, NO_SECOND_LEG, relayNode, ROUTE_HARDWARE, ROUTE_UNREACHABLE } = format;

export interface PairwiseProof {
  readonly pairs: number;
  /** What is wrong, the first few, and how many in all. */
  readonly problems: readonly string[];
  readonly problemCount: number;
  readonly cut: readonly CutPair[];
}

export function provePairwise(torus: Torus, faults: TorusFaults, tables: readonly (readonly number[] | null)[], maxProblems = 20): PairwiseProof {
  const problems: string[] = [];
  let problemCount = 0;
  const cut: CutPair[] = [];
  let pairs = 0;
  const problem = (text: string) => {
    if (problems.length < maxProblems) problems.push(text);
    problemCount++;
  };
  for (let s = 0; s < torus.size; s++) {
    if (faults.deadNode[s]) continue;
    const words = tables[s];
    if (!words) {
      problem(`live node ${torus.name(s)} has no route-override table`);
      continue;
    }
    for (let t = 0; t < torus.size; t++) {
      if (t === s) continue;
      pairs++;
      const at = chooseRoute(torus, words, s, t);
      if (faults.deadNode[t]) {
        if (at !== ROUTE_UNREACHABLE) problem(`${torus.name(s)} would send to the dead node ${torus.name(t)}`);
        continue;
      }
      if (at === ROUTE_UNREACHABLE) {
        cut.push({ source: s, destination: t });
        continue;
      }
      if (at === ROUTE_HARDWARE) {
        const fault = legFault(torus, faults, HARDWARE_LEG, s, t);
        if (fault) problem(`${torus.name(s)} to ${torus.name(t)} by the hardware's dynamic route meets a ${fault}`);
        continue;
      }
      const second = words[at + 1];
      if (second === NO_SECOND_LEG) {
        const fault = legFault(torus, faults, words[at], s, t);
        if (fault) problem(`${torus.name(s)} to ${torus.name(t)} by its override meets a ${fault}`);
        continue;
      }
      const r = relayNode(torus, words, at, s, t);
      if (faults.deadNode[r]) {
        problem(`${torus.name(s)} to ${torus.name(t)} relays at the dead node ${torus.name(r)}`);
        continue;
      }
      const fault = legFault(torus, faults, words[at], s, r) ?? legFault(torus, faults, second, r, t);
      if (fault) problem(`${torus.name(s)} to ${torus.name(t)} relayed at ${torus.name(r)} meets a ${fault}`);
    }
  }
  return { pairs, problems, problemCount, cut };
}
