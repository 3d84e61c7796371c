/**
 * The routing engines, by the family they configure (issue 35, capability 3; OpenSM keeps such a
 * table of its engines). A family arrives as one row here: what the service needs of its engine
 * beyond computing images — for now its reading of an image for the route analyses.
 */
import type { FabricFamily } from '@weft/fabric-model';
import type { Forwarding } from '../analysis/forwarding';
import type { KnownFabric } from '../discovery/known-fabric';
import type { ConfigurationImage } from '../blackwidow/blackwidow-engine';
import { blackWidowForwarding } from '../blackwidow/blackwidow-forwarding';
import { dumpImage, IMAGE_TEXT_FORMAT } from '../blackwidow/image-text';
import type { ChipImages } from './image-delta';

export interface RoutingEngineEntry {
  /** The name a generation records as the engine that produced it. */
  readonly name: string;
  /** The family's reading of one of its images: what each chip does with a packet. */
  forwarding(known: KnownFabric, image: ChipImages): Forwarding;
  /** An image as readable text (its golden form), and the format's name. */
  dump(image: ChipImages): string;
  readonly dumpFormat: string;
}

export const ROUTING_ENGINES: Readonly<Record<FabricFamily, RoutingEngineEntry>> = {
  blackwidow: {
    name: 'blackwidow',
    forwarding: (known, image) => blackWidowForwarding(known, image as ConfigurationImage),
    dump: (image) => dumpImage(image as ConfigurationImage),
    dumpFormat: IMAGE_TEXT_FORMAT,
  },
};

/** The engine of a family, or an error naming the families that have one. */
export function routingEngineOf(family: string): RoutingEngineEntry {
  const entry = (ROUTING_ENGINES as Record<string, RoutingEngineEntry | undefined>)[family];
  if (!entry) throw new Error(`no routing engine for the family "${family}" (engines: ${Object.keys(ROUTING_ENGINES).join(', ')})`);
  return entry;
}
