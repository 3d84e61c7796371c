/**
 * The routing engines, by the family they configure (issue 35, capability 3; OpenSM keeps such a
 * table of its engines). A family arrives as one row here: what the service needs of its engine
 * beyond computing images — for now its reading of an image for the route analyses.
 */
import type { FabricDesign, FabricFamily } from '@weft/fabric-model';
import { discoverFabric } from '../discovery/discovery-sweep';
import { matchDesign } from '../discovery/match-design';
import { discoverBgl } from '../bgl/bgl-discovery';
import { BglImage, BglNodeImage, BglRoutingEngine } from '../bgl/bgl-routing-engine';
import { BGL_IMAGE_TEXT_FORMAT, diffBglNode, dumpBglImage, planBglPush, reconcileBglImage, triageBglInterrupts } from '../bgl/bgl-registry';
import type { Forwarding } from '../analysis/forwarding';
import type { KnownFabric } from '../discovery/known-fabric';
import type { ConfigurationImage, RouterImage } from '../blackwidow/blackwidow-engine';
import { blackWidowForwarding } from '../blackwidow/blackwidow-forwarding';
import { bglForwarding } from '../bgl/bgl-forwarding';
import { BglNodeDescription, bglLinksOutOfService, describeBglNode } from '../bgl/bgl-describe';
import { describeRouter, diffRouter, RouterDescription } from '../blackwidow/describe';
import { RouterDiff } from './chip-diff';
import { portsOutOfService } from '../blackwidow/out-of-service';
import { GenerationCircumstances, PortOutOfService } from './out-of-service';
import { dumpImage, IMAGE_TEXT_FORMAT } from '../blackwidow/image-text';
import type { InterruptRecord, MaintenanceTransport } from '../maintenance-transport';
import { triageInterrupts, TriageContext, TriageDecision } from '../automation/fault-triage';
import { BlackWidowRoutingEngine } from '../blackwidow/blackwidow-routing-engine';
import { planPush, reconcileImage } from '../blackwidow/push-plan';
import { PushPlan, ReconcileReport } from './push-plan';
import type { ChipImages } from './image-delta';
import { discoverAnton2 } from '../anton2/anton2-discovery';
import { anton2Forwarding } from '../anton2/anton2-forwarding';
import { anton2ChannelsOutOfService, Anton2AsicDescription, describeAnton2Asic } from '../anton2/anton2-describe';
import type { Anton2AsicImage } from '../anton2/anton2-configuration';
import { Anton2EngineImage, Anton2RoutingEngine } from '../anton2/anton2-routing-engine';
import {
  ANTON2_IMAGE_TEXT_FORMAT,
  diffAnton2Asic,
  dumpAnton2Image,
  planAnton2Push,
  reconcileAnton2Image,
  triageAnton2Interrupts,
} from '../anton2/anton2-registry';
import type { RoutingEngine } from './routing-engine';
import { discoverFlat } from '../flattened-butterfly/flat-discovery';
import { FlatEngineImage, FlatRoutingEngine } from '../flattened-butterfly/flat-routing-engine';
import type { FlatRouterImage } from '../flattened-butterfly/flat-configuration';
import { flatForwarding } from '../flattened-butterfly/flat-forwarding';
import { describeFlatRouter, FlatRouterDescription, flatPortsOutOfService } from '../flattened-butterfly/flat-describe';
import {
  diffFlatRouter,
  dumpFlatImage,
  FLAT_IMAGE_TEXT_FORMAT,
  planFlatPush,
  reconcileFlatImage,
  triageFlatInterrupts,
} from '../flattened-butterfly/flat-registry';

/** One chip of an image decoded for display, in its family's terms: a member per family. */
export type DecodedChip =
  | {
      readonly family: 'blackwidow';
      readonly router: RouterDescription;
      readonly outOfService: readonly PortOutOfService[];
    }
  | {
      readonly family: 'bgl';
      readonly node: BglNodeDescription;
      readonly outOfService: readonly PortOutOfService[];
    }
  | {
      readonly family: 'anton2';
      readonly asic: Anton2AsicDescription;
      readonly outOfService: readonly PortOutOfService[];
    }
  | {
      readonly family: 'flattened-butterfly';
      readonly router: FlatRouterDescription;
      readonly outOfService: readonly PortOutOfService[];
    };

export interface RoutingEngineEntry {
  /** The name a generation records as the engine that produced it. */
  readonly name: string;
  /** Discovery of a fabric of the family through its maintenance transport, matched with its design (`attachment`: the file's maintenance attachment). */
  discover(transport: MaintenanceTransport, design: FabricDesign, attachment: string): Promise<KnownFabric>;
  /** An engine for one fabric as last discovered (it keeps the state its incremental path starts from). */
  create(known: KnownFabric): RoutingEngine;
  /** The writes from what the fabric holds (null: unknown) to `next`, phase by phase, changed chips only. */
  plan(held: ChipImages | null, next: ChipImages): PushPlan;
  /** Makes the fabric hold `image` whatever it holds now: reads every register back, rewrites what differs. */
  reconcile(transport: MaintenanceTransport, image: ChipImages): Promise<ReconcileReport>;
  /** The family's reading of one of its images: what each chip does with a packet (absent: the route analyses do not read this family's images yet). */
  forwarding?(known: KnownFabric, image: ChipImages): Forwarding;
  /** The family's triage: what a batch of interrupts means (probing through the transport where
   * an interrupt alone cannot tell), as faults to declare or clear. */
  triage(interrupts: readonly InterruptRecord[], transport: MaintenanceTransport, context: TriageContext): Promise<TriageDecision[]>;
  /** Register by register, in the chip's terms, what differs between a chip's images (undefined: nothing; an image missing: not configured). */
  diffChip(chip: string, before: ChipImages['routers'][number] | undefined, after: ChipImages['routers'][number] | undefined): RouterDiff | undefined;
  /** One chip of an image decoded for display, with why each of its ports the design cables is out of service (absent: not yet shown through the API). */
  decodeChip?(chip: ChipImages['routers'][number], design: FabricDesign, circumstances: GenerationCircumstances | null): DecodedChip;
  /** An image as readable text (its golden form), and the format's name. */
  dump(image: ChipImages): string;
  readonly dumpFormat: string;
}

/** A family without a row here has no routing engine yet: its fabrics are refused where they would need one. */
export const ROUTING_ENGINES: Readonly<Partial<Record<FabricFamily, RoutingEngineEntry>>> = {
  blackwidow: {
    name: 'blackwidow',
    // Paper 000 §7.1: a sweep hop by hop from the controller's processor, one port per slice.
    discover: async (transport, design, attachment) => {
      const controller = design.chips.find((c) => c.name === attachment);
      if (!controller) throw new Error(`the maintenance attachment "${attachment}" is not a chip of the design`);
      const discovered = await discoverFabric(transport, {
        controllerPorts: controller.portRoles.map((_, i) => i).filter((i) => controller.portRoles[i] !== 'unused'),
      });
      return { discovered, matched: matchDesign(discovered, design), design, attachment };
    },
    create: (known) => new BlackWidowRoutingEngine(known),
    triage: triageInterrupts,
    diffChip: (chip, before, after) => diffRouter(chip, before as RouterImage | undefined, after as RouterImage | undefined),
    decodeChip: (chip, design, circumstances) => ({
      family: 'blackwidow',
      router: describeRouter(chip as RouterImage),
      outOfService: portsOutOfService(chip as RouterImage, design, circumstances),
    }),
    plan: (held, next) => planPush(held as ConfigurationImage | null, next as ConfigurationImage),
    reconcile: (transport, image) => reconcileImage(transport, image as ConfigurationImage),
    forwarding: (known, image) => blackWidowForwarding(known, image as ConfigurationImage),
    dump: (image) => dumpImage(image as ConfigurationImage),
    dumpFormat: IMAGE_TEXT_FORMAT,
  },
  bgl: {
    name: 'bgl',
    // Paper 002 §1: over the JTAG control network, every place of the packaging asked.
    discover: (transport, design) => discoverBgl(transport, design),
    create: (known) => new BglRoutingEngine(known),
    triage: triageBglInterrupts,
    diffChip: (chip, before, after) => diffBglNode(chip, before as BglNodeImage | undefined, after as BglNodeImage | undefined),
    plan: (held, next) => planBglPush(held as BglImage | null, next as BglImage),
    reconcile: (transport, image) => reconcileBglImage(transport, image as BglImage),
    forwarding: (known, image) => bglForwarding(known, image as BglImage),
    decodeChip: (chip, design, circumstances) => ({
      family: 'bgl',
      node: describeBglNode(chip as BglNodeImage, design, circumstances),
      outOfService: bglLinksOutOfService(chip as BglNodeImage, design, circumstances),
    }),
    dump: (image) => dumpBglImage(image as BglImage),
    dumpFormat: BGL_IMAGE_TEXT_FORMAT,
  },
  anton2: {
    name: 'anton2',
    // Over the control network, every nodecard of the packaging asked (anton2-discovery.ts).
    discover: (transport, design) => discoverAnton2(transport, design),
    create: (known) => new Anton2RoutingEngine(known),
    triage: triageAnton2Interrupts,
    diffChip: (chip, before, after) => diffAnton2Asic(chip, before as Anton2AsicImage | undefined, after as Anton2AsicImage | undefined),
    plan: (held, next) => planAnton2Push(held as Anton2EngineImage | null, next as Anton2EngineImage),
    reconcile: (transport, image) => reconcileAnton2Image(transport, image as Anton2EngineImage),
    forwarding: (known, image) => anton2Forwarding(known, image as Anton2EngineImage),
    decodeChip: (chip, design, circumstances) => ({
      family: 'anton2',
      asic: describeAnton2Asic(chip as Anton2AsicImage, design),
      outOfService: anton2ChannelsOutOfService(chip as Anton2AsicImage, design, circumstances),
    }),
    dump: (image) => dumpAnton2Image(image as Anton2EngineImage),
    dumpFormat: ANTON2_IMAGE_TEXT_FORMAT,
  },
  'flattened-butterfly': {
    name: 'flattened-butterfly',
    // Over the service network, every router's place asked (flat-discovery.ts).
    discover: (transport, design) => discoverFlat(transport, design),
    create: (known) => new FlatRoutingEngine(known),
    triage: triageFlatInterrupts,
    diffChip: (chip, before, after) => diffFlatRouter(chip, before as FlatRouterImage | undefined, after as FlatRouterImage | undefined),
    plan: (held, next) => planFlatPush(held as FlatEngineImage | null, next as FlatEngineImage),
    reconcile: (transport, image) => reconcileFlatImage(transport, image as FlatEngineImage),
    forwarding: (known, image) => flatForwarding(known, image as FlatEngineImage),
    decodeChip: (chip, design, circumstances) => ({
      family: 'flattened-butterfly',
      router: describeFlatRouter(chip as FlatRouterImage, design),
      outOfService: flatPortsOutOfService(chip as FlatRouterImage, design, circumstances),
    }),
    dump: (image) => dumpFlatImage(image as FlatEngineImage),
    dumpFormat: FLAT_IMAGE_TEXT_FORMAT,
  },
};

/** The engine of a family, or an error naming the families that have one. */
export function routingEngineOf(family: string): RoutingEngineEntry {
  const entry = (ROUTING_ENGINES as Record<string, RoutingEngineEntry | undefined>)[family];
  if (!entry) throw new Error(`no routing engine for the family "${family}" (engines: ${Object.keys(ROUTING_ENGINES).join(', ')})`);
  return entry;
}

/** The engine a generation records as its maker, by that name. */
export function routingEngineNamed(name: string): RoutingEngineEntry {
  const entry = Object.values(ROUTING_ENGINES).find((e) => e?.name === name);
  if (!entry)
    throw new Error(
      `no routing engine is named "${name}" (engines: ${Object.values(ROUTING_ENGINES)
        .map((e) => e?.name)
        .join(', ')})`,
    );
  return entry;
}
