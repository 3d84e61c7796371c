/**
 * A fixture as the emulator's host runs it, configured as the service would (digests, the family
 * soak; issue 56): the chip model's hosted engine and its maintenance controller
 * (@weft/emulator chip-models.ts), discovered, computed, proven and pushed by the family's routing
 * engine (ROUTING_ENGINES), every interrupt recorded with its emulated time.
 */
import { chipModelOf, EmulatedFabric, runUntilSettled } from '@weft/emulator';
import type { HostedEngine } from '@weft/emulator';
import { loadInstallationFile } from '@weft/fabric-model';
import type { FabricFamily, Installation, MaintenanceTransport } from '@weft/fabric-model';
import { driveEngine } from '../engine/driver';
import type { ChipImages } from '../engine/image-delta';
import { executePlan } from '../engine/push-plan';
import { ROUTING_ENGINES, RoutingEngineEntry } from '../engine/routing-engines';
import { FaultSet } from '../faults/fault-set';

export interface HostedFabric {
  readonly installation: Installation;
  readonly family: FabricFamily;
  readonly fabric: EmulatedFabric;
  readonly hosted: HostedEngine;
  readonly controller: MaintenanceTransport;
  readonly entry: RoutingEngineEntry;
  /** The configuration pushed: the routing engine's around no faults. */
  readonly image: ChipImages;
  /** Every interrupt so far, as `kind time serial:port:vc:lane`. */
  readonly interrupts: string[];
}

/** Cycles a maintenance operation on a hosted fabric may take (a 32K BG/L's discovery over JTAG is the longest). */
export const SETTLE_CYCLES = 50_000_000;

/**
 * Loads the installation file at `path`, powers its fabric up with `seed` and configures it —
 * with the family's routing settings (`settings`, as an operator gives them: Anton 2's multicast
 * groups) where given; their problems are an error.
 */
export async function hostedFabric(path: string, seed: number, settings?: unknown): Promise<HostedFabric> {
  const installation = loadInstallationFile(path);
  const family = installation.physical.family;
  const fabric = new EmulatedFabric(installation.physical);
  const model = chipModelOf(fabric);
  const hosted = model.build(fabric, seed);
  const attachment = installation.file.maintenanceAttachment;
  const controller = model.controller(hosted, attachment);
  const interrupts: string[] = [];
  controller.onInterrupt((i) => interrupts.push(`${i.kind} ${i.emulatedTimeNs} ${i.serial}:${i.port ?? '-'}:${i.vc ?? '-'}:${i.lane ?? '-'}`));
  const entry = ROUTING_ENGINES[family];
  if (!entry) throw new Error(`${path}: no routing engine for ${family}`);
  const known = await runUntilSettled(hosted, entry.discover(controller, installation.expected, attachment), SETTLE_CYCLES);
  const engine = entry.create(known);
  if (settings !== undefined) {
    const problems = engine.applySettings?.(settings) ?? [`${family}'s routing engine takes no settings`];
    if (problems.length > 0) throw new Error(`${path}: the routing settings were refused: ${problems.join('; ')}`);
  }
  const outcome = driveEngine(engine, FaultSet.NONE);
  if (!outcome.pushable) throw new Error(`${path}: the configuration was not proven: ${outcome.verification.violations[0]?.message}`);
  const image = outcome.computed.image;
  const pushed = await runUntilSettled(hosted, executePlan(controller, entry.plan(null, image)), SETTLE_CYCLES);
  if (pushed.failures.length > 0) throw new Error(`${path}: the push failed: ${JSON.stringify(pushed.failures[0])}`);
  return { installation, family, fabric, hosted, controller, entry, image, interrupts };
}
