/**
 * The BlueGene/L routing engine (issue 36; spec §1.3): from a fabric as discovered and the faults in
 * force, every node's registers — neighbour coordinates and hint cutoffs for minimal routing (§2),
 * the arbitration and bubble settings as policy — and the route-override table its software
 * consults to keep packets off dead nodes and links (§2, route-overrides.ts). A cable discovered
 * where the design does not put it is not routed over: its far end is not the neighbour the hint
 * bits assume. The proof is independent of the computation (spec §1.4): the hint registers read
 * back (V1), every live pair's chosen route clear of the faults by classes of destinations, and on
 * small machines walked pair by pair (V2, V3), the bubble buffers and accounting (V4).
 */
import { bglFaultSetWords, designTorus, parseBglFaultSet, TieRule, Torus } from '@weft/fabric-model';
import { cablesNotFoundAsDesigned, KnownFabric } from '../discovery/known-fabric';
import type { ChipImages } from '../engine/image-delta';
import type { EngineComputation, RoutingEngine, Unreachable } from '../engine/routing-engine';
import type { FaultSet } from '../faults/fault-set';
import type { VerificationReport, Violation } from '../engine/verification';
import { controlAddresses } from './bgl-discovery';
import { computeHintRegisters, proveHintRegisters } from './hint-registers';
import { proveByClasses } from './route-override-proof';
import { provePairwise } from './route-override-verifier';
import { sameWords } from '../engine/register-images';
import { RouteOverrideCompiler } from '@weft/fabric-model';
import { TorusFaults, TorusLinkFault } from '@weft/fabric-model';

/** A node's registers as the engine computes them (chips/bgl-node.ts names them). */
export interface BglNodeImage {
  readonly name: string;
  /** Its control-network address (not a register: where the push writes). */
  readonly route: readonly number[];
  /** Six coordinate triples, x+ first (18 numbers). */
  readonly neighbourCoordinates: readonly number[];
  readonly hintCutoffPlus: readonly number[];
  readonly hintCutoffMinus: readonly number[];
  /** [SLQ permille, in-network priority permille, packet arbitration (0 JSQ, 1 random)]. */
  readonly arbitration: readonly number[];
  /** [accounting (0 full-size, 1 by-size), escape order (0 dimension, 1 direction)]. */
  readonly bubble: readonly number[];
  readonly routeOverrides: readonly number[];
}

export interface BglImage extends ChipImages {
  readonly family: 'bgl';
  readonly shape: readonly number[];
  readonly routers: readonly BglNodeImage[];
  /**
   * The fault set broadcast to every node (fault-set-register.ts's words; empty: none), which the
   * nodes' software routes around where their tables hold no entries — the policy's `faultRouting`
   * 'broadcast' (issue 55). Absent in images made before it.
   */
  readonly faultSet?: readonly number[];
  /** Live pairs no route of the repertoire joins, by name (source → destinations). */
  readonly cut: readonly { readonly source: string; readonly destinations: readonly string[] }[];
}

/** Policy (§2's programmable settings, and weft's named choices where the paper is silent). */
export interface BglPolicy {
  /**
   * Where the hint registers send a destination exactly half way round an even ring (§2 leaves it
   * to the registers). 'source-parity' (the default): d+ from even coordinates, d− from odd ones.
   * 'plus' sends every such packet d+, so uniform traffic loads the d+ links (k/2)(k/2 + 1)/2
   * against (k/2)(k/2 − 1)/2 and the network saturates at k/(k + 2) of its links' capacity:
   * 0.80 on a midplane's 8-rings, 0.89 on 16, 0.94 on 32 (issue 57, item 4: the paper's Fig. 4
   * runs to 95 % utilisation, which 'plus' cannot reach; test/studies/bgl-arbitration.ts).
   */
  readonly tieRule: TieRule;
  readonly relayPenaltyHops: number;
  /** §2 / Fig. 5: SLQ on 75% of arbitration cycles. */
  readonly slqPermille: number;
  /** §2: "typically 1.0". */
  readonly inNetworkPriorityPermille: number;
  /** §2: BG/L's correction, every bubble packet accounted as full-sized. */
  readonly bubbleAccounting: 'full-size' | 'by-size';
  readonly escapeOrder: 'dimension' | 'direction';
  /** Packet sizes vary on BG/L (32–256 bytes): by-size accounting is then refused (V4). */
  readonly variablePacketSizes: boolean;
  /** VC buffer bytes the nodes have (1 KB on BG/L, §2), for V4. */
  readonly vcBufferBytes: number;
  /**
   * Up to this many nodes the proof also walks every live pair hop by hop, beside the proof by
   * classes: a cross-check on small tori (4×4×4 and less by default). On a midplane it would
   * double a reaction's time (some 100 ms of 150), and the classes proof is the proof.
   */
  readonly pairwiseProofNodes: number;
  /**
   * How the nodes learn the faults to route around (issue 55): 'broadcast' — the fault set in one
   * write to every node, each node's software building its own route-override table from it as it
   * sends (one fault, one write); 'tables' — each node's table computed here and written to it
   * (a fault rewrites nearly every node's table).
   */
  readonly faultRouting: 'broadcast' | 'tables';
}

export const DEFAULT_BGL_POLICY: BglPolicy = {
  tieRule: 'source-parity',
  relayPenaltyHops: 8,
  slqPermille: 750,
  inNetworkPriorityPermille: 1000,
  bubbleAccounting: 'full-size',
  escapeOrder: 'dimension',
  variablePacketSizes: true,
  vcBufferBytes: 1024,
  pairwiseProofNodes: 64,
  faultRouting: 'broadcast',
};

export interface BglComputation extends EngineComputation<BglImage> {
  readonly torusFaults: TorusFaults;
  /** Every live node's route-override table under the rule (the tables written, or those the nodes will build from the fault set), for the proof. */
  readonly tables: readonly (readonly number[] | null)[];
}

export class BglRoutingEngine implements RoutingEngine<BglImage, BglComputation> {
  readonly name = 'bgl';
  private readonly torus: Torus;
  /** Design node by torus index, and torus index by name. */
  private readonly nodeName: string[];
  private readonly indexOf = new Map<string, number>();
  private readonly routeOf = new Map<string, readonly number[]>();
  private adopted: BglComputation | null = null;

  constructor(
    readonly known: KnownFabric,
    readonly policy: BglPolicy = DEFAULT_BGL_POLICY,
  ) {
    this.torus = designTorus(known.design, policy.tieRule);
    this.emptyTable = [policy.relayPenaltyHops, 0];
    this.nodeName = new Array<string>(this.torus.size);
    const routes = controlAddresses(known.design);
    known.design.chips.forEach((chip, i) => this.routeOf.set(chip.name, routes[i]));
    for (const chip of known.design.chips) {
      const [x, y, z] = chip.coordinates ?? [0, 0, 0];
      const i = this.torus.index(x, y, z);
      this.nodeName[i] = chip.name;
      this.indexOf.set(chip.name, i);
    }
  }

  /** The faults as the torus sees them: dead nodes, and the links of faulty ports and of cables not found as designed (both ways). */
  torusFaults(faults: FaultSet): TorusFaults {
    const dead: number[] = [];
    for (const name of faults.routers) {
      const i = this.indexOf.get(name);
      if (i !== undefined) dead.push(i);
    }
    const links: TorusLinkFault[] = [];
    const both = (node: number, direction: number) => {
      links.push({ node, direction }, { node: this.torus.neighbour(node, direction), direction: direction ^ 1 });
    };
    for (const { chip, port } of faults.ports()) {
      const i = this.indexOf.get(chip);
      if (i !== undefined && port >= 0 && port < 6 && !faults.routers.has(chip)) both(i, port);
    }
    // A cable discovery did not find as designed (missing, miswired, displaced) is not routed over.
    for (const ends of cablesNotFoundAsDesigned(this.known)) {
      for (const end of ends) {
        const i = this.indexOf.get(end.chip);
        if (i !== undefined && end.port >= 0 && end.port < 6) both(i, end.port);
      }
    }
    for (const finding of this.known.matched.findings) {
      if (finding.kind !== 'unreachable-chip' || !finding.chip) continue;
      const i = this.indexOf.get(finding.chip);
      if (i !== undefined) dead.push(i);
    }
    return new TorusFaults(this.torus, dead, links);
  }

  compute(faults: FaultSet): BglComputation {
    const torus = this.torus;
    const torusFaults = this.torusFaults(faults);
    const overrides = new RouteOverrideCompiler(torus, torusFaults, { relayPenaltyHops: this.policy.relayPenaltyHops }).compile();
    const broadcast = this.policy.faultRouting === 'broadcast';
    const previous = new Map((this.adopted?.image.routers ?? []).map((r) => [r.name, r]));
    const routers: BglNodeImage[] = [];
    const changed: string[] = [];
    for (let i = 0; i < torus.size; i++) {
      if (torusFaults.deadNode[i]) continue;
      const name = this.nodeName[i];
      // Broadcast: every node's own table holds no entries (its software builds one from the fault set).
      const routeOverrides = broadcast ? this.emptyTable : (overrides.tables[i] ?? []);
      // Faults change only the tables: a node keeps its image object when its table is the same
      // (image-delta.ts), and its registers' arrays otherwise.
      const old = previous.get(name);
      if (old && sameWords(old.routeOverrides, routeOverrides)) {
        routers.push(old);
        continue;
      }
      routers.push({ ...(old ?? this.fixedRegisters(i)), routeOverrides });
      changed.push(name);
    }
    const cutBySource = new Map<string, string[]>();
    for (const { source, destination } of overrides.cut) {
      const list = cutBySource.get(this.nodeName[source]) ?? [];
      list.push(this.nodeName[destination]);
      cutBySource.set(this.nodeName[source], list);
    }
    const image: BglImage = {
      family: 'bgl',
      shape: [...torus.shape],
      routers,
      cut: [...cutBySource].map(([source, destinations]) => ({ source, destinations })),
      faultSet: broadcast ? bglFaultSetWords(this.policy.relayPenaltyHops, torusFaults) : [],
    };
    return { faults, incremental: false, image, changedRouters: changed, torusFaults, tables: overrides.tables };
  }

  /** A table with no entries (the nodes' software routes by the fault set), one array for all. */
  private emptyTable: readonly number[] = [];

  /** The registers faults do not change (neighbours, hint cutoffs, policy), made once per node. */
  private fixed: (Omit<BglNodeImage, 'routeOverrides'> | undefined)[] = [];
  private hints: ReturnType<typeof computeHintRegisters> | null = null;

  private fixedRegisters(i: number): Omit<BglNodeImage, 'routeOverrides'> {
    let registers = this.fixed[i];
    if (registers) return registers;
    const torus = this.torus;
    const hints = (this.hints ??= computeHintRegisters(torus));
    const neighbourCoordinates: number[] = [];
    for (let dir = 0; dir < 6; dir++) neighbourCoordinates.push(...torus.coordinates(hints.neighbours[6 * i + dir]));
    const name = this.nodeName[i];
    registers = {
      name,
      route: this.routeOf.get(name)!,
      neighbourCoordinates,
      hintCutoffPlus: Array.from(hints.cutoffPlus.subarray(3 * i, 3 * i + 3)),
      hintCutoffMinus: Array.from(hints.cutoffMinus.subarray(3 * i, 3 * i + 3)),
      arbitration: [this.policy.slqPermille, this.policy.inNetworkPriorityPermille, 0],
      bubble: [this.policy.bubbleAccounting === 'by-size' ? 1 : 0, this.policy.escapeOrder === 'direction' ? 1 : 0],
    };
    this.fixed[i] = registers;
    return registers;
  }

  /** Each node's register arrays as the last clean V1 proof found them (see verify). */
  private provenRegisters: Map<string, readonly [readonly number[], readonly number[], readonly number[]]> | null = null;

  verify(computed: BglComputation): VerificationReport {
    const torus = this.torus;
    const violations: Violation[] = [];
    const note = (kind: Violation['kind'], message: string) => {
      if (violations.length < 50) violations.push({ kind, message });
    };
    // V1, from the image's registers alone — unless every live node's registers are the very
    // arrays a clean V1 proof of an earlier image held (faults change only the tables, and a node's
    // image keeps its register arrays: compute()), so that a reaction proves only what it changed.
    const n = torus.size;
    // The tables the nodes route by: those written to them, or — where theirs hold no entries — the
    // ones their software builds from the fault set broadcast (the rule, for the same faults).
    const broadcastFaults = computed.image.faultSet && computed.image.faultSet.length > 0 ? parseBglFaultSet(torus, computed.image.faultSet) : null;
    if (broadcastFaults && 'problem' in broadcastFaults) note('not-proven', `the fault set broadcast cannot be read: ${broadcastFaults.problem}`);
    else if (broadcastFaults && !sameFaults(broadcastFaults.faults, computed.torusFaults))
      note('not-proven', 'the fault set broadcast is not the fault set the configuration routes around');
    else if (broadcastFaults && broadcastFaults.tieRule !== torus.tieRule)
      note('not-proven', `the fault set broadcast names the tie rule ${broadcastFaults.tieRule}; the hint registers follow ${torus.tieRule}`);
    const tables: (readonly number[] | null)[] = new Array(n).fill(null);
    let sameRegisters = this.provenRegisters !== null;
    for (const router of computed.image.routers) {
      const i = this.indexOf.get(router.name)!;
      tables[i] =
        router.routeOverrides.length > 1 && router.routeOverrides[1] > 0 ? router.routeOverrides : broadcastFaults ? computed.tables[i] : router.routeOverrides;
      const proven = this.provenRegisters?.get(router.name);
      if (!proven || proven[0] !== router.neighbourCoordinates || proven[1] !== router.hintCutoffPlus || proven[2] !== router.hintCutoffMinus)
        sameRegisters = false;
    }
    if (!sameRegisters) {
      const cutoffPlus = new Int32Array(3 * n);
      const cutoffMinus = new Int32Array(3 * n);
      const neighbours = new Int32Array(6 * n).fill(-1);
      for (const router of computed.image.routers) {
        const i = this.indexOf.get(router.name)!;
        cutoffPlus.set(router.hintCutoffPlus, 3 * i);
        cutoffMinus.set(router.hintCutoffMinus, 3 * i);
        for (let dir = 0; dir < 6; dir++) {
          const c = router.neighbourCoordinates.slice(3 * dir, 3 * dir + 3);
          neighbours[6 * i + dir] = torus.index(c[0], c[1], c[2]);
        }
      }
      // Dead nodes have no registers: the others' are proven.
      const hintProof = proveHintRegisters(torus, { cutoffPlus, cutoffMinus, neighbours }, 20, (i) => computed.torusFaults.deadNode[i] === 1);
      for (const problem of hintProof.problems) note('hint-registers', problem);
      this.provenRegisters =
        hintProof.problemCount === 0
          ? new Map(computed.image.routers.map((r) => [r.name, [r.neighbourCoordinates, r.hintCutoffPlus, r.hintCutoffMinus] as const]))
          : null;
    }
    // V4: bubble buffers hold two full packets, and full-size accounting where sizes vary.
    if (this.policy.vcBufferBytes < 512)
      note('bubble-configuration', `a bubble VC of ${this.policy.vcBufferBytes} bytes cannot hold two full-sized (256-byte) packets (§2)`);
    if (this.policy.bubbleAccounting === 'by-size' && this.policy.variablePacketSizes)
      note(
        'bubble-configuration',
        'bubble accounting by size with packets of several sizes can deadlock (§2): every bubble packet must be accounted as full-sized',
      );
    // V2, V3: every live pair's chosen route clear of the faults, by classes of destinations;
    // on small machines also pair by pair, each route walked hop by hop.
    const classes = proveByClasses(torus, computed.torusFaults, tables);
    for (const problem of classes.problems) note('uses-fault', problem);
    // Live pairs, each proven joined or cut (refusals to dead destinations are proven too, not counted).
    const pairs = classes.sources * (classes.sources - 1) - classes.cutPairs;
    if (n <= this.policy.pairwiseProofNodes) {
      const proof = provePairwise(torus, computed.torusFaults, tables);
      for (const problem of proof.problems) note('uses-fault', problem);
      if (proof.cut.length !== classes.cutPairs)
        note('not-proven', `the two proofs disagree on the cut pairs: ${proof.cut.length} pair by pair, ${classes.cutPairs} by classes`);
    }
    return {
      ok: violations.length === 0,
      violations,
      states: n,
      pairsProven: pairs,
      endpointsProven: violations.length === 0 ? computed.image.routers.length : 0,
      maxHops: 0,
    };
  }

  adopt(computed: BglComputation, _verification: VerificationReport): void {
    this.adopted = computed;
  }

  unreachable(computed: BglComputation): readonly Unreachable[] {
    return computed.image.cut.map((c) => ({ kind: 'destinations', source: c.source, destinations: c.destinations }));
  }
}

/** Whether two fault sets name the same dead nodes and links. */
function sameFaults(a: TorusFaults, b: TorusFaults): boolean {
  const key = (f: TorusFaults) =>
    `${f.nodes.join(',')}/${[...f.links]
      .map((l) => l.node * 6 + l.direction)
      .sort((x, y) => x - y)
      .join(',')}`;
  return key(a) === key(b);
}

/**
 * The registers of one node image, as the writes that put them in place: register, index, value —
 * the routing and policy registers each as one block (a JTAG scan writes a node's block at once),
 * and the route-override table.
 */
export function nodeWrites(image: BglNodeImage): { register: string; index: number; value: number[] }[] {
  return [
    { register: 'routingRegisters', index: 0, value: [...image.neighbourCoordinates, ...image.hintCutoffPlus, ...image.hintCutoffMinus] },
    { register: 'policyRegisters', index: 0, value: [...image.arbitration, ...image.bubble] },
    { register: 'routeOverrides', index: 0, value: [...image.routeOverrides] },
  ];
}
