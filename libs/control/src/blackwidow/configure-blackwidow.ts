/**
 * One BlackWidow configuration from what the control plane knows: the fabric as last discovered and
 * matched against the design, and the faults to route around (declared by operators or recorded
 * from interrupts). The routing engine computes the healthy image over the usable cables, fault
 * entries are added where something is missing or faulty (paper 000 §5.1, §7.7), and the verifier
 * proves the result. Pure: nothing here touches the fabric.
 */
import type { MatchedFabric } from '../discovery/match-design';
import { indexKnownFabric, KnownFabric } from '../discovery/known-fabric';
import { maintenanceRoutes } from '../discovery/maintenance-routes';
import { computeBlackWidowImage, ConfigurationImage, DEFAULT_LINK_SETTINGS, LinkSettingsPolicy } from './blackwidow-engine';
import { applyFaultEntries } from './fault-entries';
import * as yarc from '@weft/fabric-model/chips/yarc';
import { FaultSet } from '../faults/fault-set';
import type { CutOffProcessors } from '../engine/routing-engine';
import { verifyConfiguration, VerificationInput } from './verifier';
import { VerificationReport } from '../engine/verification';

export { FaultSet };

export const NO_FAULTS: FaultSet = FaultSet.NONE;

/** Routers a packet may cross at most, by network size (paper 000 §7.4: two per rank, one less at the top). */
export const BLACKWIDOW_DIAMETER: Readonly<Record<string, number>> = { R1: 1, 'R1.5': 2, R2: 3, 'R2.5': 4, R3: 5, 'R3.5': 6 };

export interface BlackWidowConfiguration {
  readonly image: ConfigurationImage;
  readonly verification: VerificationReport;
  /** Processors the sweep found (the live destinations). */
  readonly processors: readonly number[];
  /** Live processors cut off from a slice (their R1 or their cable to it is gone), per slice:
   * reported, and left out of the proof for that slice. */
  readonly unreachable: readonly CutOffProcessors[];
}

/** Builds a fault set from fault records: a router fault takes every one of its ports (a YARC's 64) with it. */
export function faultSet(faults: readonly { kind: string; chip: string; port: number | null }[]): FaultSet {
  return FaultSet.of(faults, () => yarc.PORTS);
}

export function configureBlackWidow(
  known: KnownFabric,
  faults: FaultSet = NO_FAULTS,
  settings: LinkSettingsPolicy = DEFAULT_LINK_SETTINGS,
): BlackWidowConfiguration {
  return configureInStages(known, faults, settings).result;
}

/** The stages of a configuration, kept by the incremental configurator to start the next one from. */
export interface ConfigurationStages {
  /** The routing engine's image over the usable cables, before fault entries. */
  readonly healthy: ConfigurationImage;
  /** With fault entries (routers without any are the same objects as in `healthy`). */
  readonly routed: ConfigurationImage;
  readonly blocks: number;
  readonly result: BlackWidowConfiguration;
}

/** A configuration computed and not yet proven: its stages, and what its proof is checked against. */
export interface ComputedStages extends Omit<ConfigurationStages, 'result'> {
  readonly result: Omit<BlackWidowConfiguration, 'verification'>;
  /** The proof's input but for the image and the faults: cabling, endpoints, slices, diameter. */
  readonly proofBasis: ProofBasis;
}

export type ProofBasis = Omit<VerificationInput, 'image' | 'faults'>;

/** Proves a computed configuration (the verifier: every path up*\/down*, paper 000 §7.7). */
export function proveImage(basis: ProofBasis, image: ConfigurationImage, faults: FaultSet): VerificationReport {
  return verifyConfiguration({ ...basis, image, faults });
}

export function configureInStages(
  known: KnownFabric,
  faults: FaultSet,
  settings: LinkSettingsPolicy,
  /** A proof already held for these registers under these faults (the configurator's memory), if any. */
  proofOf: (faults: FaultSet, routers: ConfigurationImage['routers']) => VerificationReport | null = () => null,
): ConfigurationStages {
  const computed = computeStages(known, faults, settings);
  const verification = proofOf(faults, computed.routed.routers) ?? proveImage(computed.proofBasis, computed.result.image, faults);
  return { ...computed, result: { ...computed.result, verification } };
}

/** Everything of a configuration but its proof: the routing engine's image, the fault entries, the maintenance routes. */
export function computeStages(known: KnownFabric, faults: FaultSet, settings: LinkSettingsPolicy): ComputedStages {
  const { discovered, matched, design } = known;
  const processors: number[] = [];
  let highest = 0;
  for (const c of discovered.chips) {
    if (c.kind !== 'endpoint' || c.processor === undefined) continue;
    processors.push(c.processor);
    if (c.processor > highest) highest = c.processor;
  }
  const blocks = Math.ceil((highest + 1) / 32);
  const usable = matched.cables.filter((c) => !faults.has(c.a) && !faults.has(c.b));
  // A faulty router gets no image (it is not written); the others are reached around the faults.
  const names = faults.routers.size === 0 ? matched.names : new Map([...matched.names].filter(([, name]) => !faults.routers.has(name)));
  const healthyImage = computeBlackWidowImage(discovered, { ...matched, names, cables: usable }, design, settings);
  // Fault entries matter only when something is missing or faulty; a fabric found exactly as
  // designed needs none, and computing them costs as much as verifying.
  const healthy = faults.portCount === 0 && matched.findings.length === 0;
  const routed = healthy ? healthyImage : applyFaultEntries(healthyImage, matched.cables, blocks, faults);
  const routes = healthy
    ? null
    : maintenanceRoutes(
        known,
        faults,
        routed.routers.map((r) => r.name),
      );
  const unreached = routes ? routed.routers.filter((r) => !routes.has(r.name)).map((r) => r.name) : [];
  const image: ConfigurationImage = routes
    ? {
        ...routed,
        routers: routed.routers.filter((r) => routes.has(r.name)).map((r) => ({ ...r, route: routes.get(r.name)! })),
        problems: [...routed.problems, ...unreached.map((name) => `${name}: no maintenance route avoids the faults; it cannot be written`)],
      }
    : routed;
  const slices = [...new Set(discovered.chips.map((c) => c.slice))].sort((x, y) => x - y);
  const cutOff = unreachableProcessors(known, usable, faults, processors, slices);
  const proofBasis: ProofBasis = {
    cables: matched.cables,
    processors,
    slices,
    unreachable: cutOff,
    diameter: BLACKWIDOW_DIAMETER[String(design.summary.network)] ?? 7,
  };
  return {
    healthy: healthyImage,
    routed,
    blocks,
    proofBasis,
    result: { image, processors, unreachable: cutOff },
  };
}

/** A processor is reachable in a slice while its cable to an R1 of that slice is usable and the R1 is not faulty. */
function unreachableProcessors(
  known: KnownFabric,
  usable: MatchedFabric['cables'],
  faults: FaultSet,
  processors: readonly number[],
  slices: readonly number[],
): CutOffProcessors[] {
  const { chips } = indexKnownFabric(known);
  const attached = new Set<string>();
  for (const cable of usable) {
    if (cable.lanes === 0) continue;
    for (const [x, y] of [
      [cable.a, cable.b],
      [cable.b, cable.a],
    ]) {
      const endpoint = chips.get(x.chip);
      const router = chips.get(y.chip);
      if (endpoint?.kind === 'endpoint' && router?.kind === 'router' && !faults.routers.has(router.name)) attached.add(`${router.slice}:${endpoint.processor}`);
    }
  }
  const out: CutOffProcessors[] = [];
  for (const slice of slices) {
    const list = processors.filter((p) => !attached.has(`${slice}:${p}`)).sort((x, y) => x - y);
    if (list.length > 0) out.push({ kind: 'processors', slice, processors: list });
  }
  return out;
}
