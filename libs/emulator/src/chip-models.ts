/**
 * The chip models the emulator carries, one row each (issue 35, capability 2): each builds the
 * fabric engine for a fabric of its chips and the maintenance controller an installation attaches
 * to it. The host picks the row by the model of the fabric's routers; a family arrives as a folder
 * plus a row here.
 */
import type { MaintenanceTransport } from '@weft/fabric-model';
import { Anton2HostedEngine } from './anton2/anton2-hosted-engine';
import { Anton2MaintenanceController } from './anton2/anton2-maintenance';
import { BglHostedEngine } from './bgl/bgl-hosted-engine';
import { FlatHostedEngine } from './flattened-butterfly/flat-hosted-engine';
import { FlatMaintenanceController } from './flattened-butterfly/flat-maintenance';
import { BglMaintenanceController } from './bgl/bgl-maintenance';
import type { EmulatedFabric } from './emulated-fabric';
import type { FabricEngine, HostedEngine } from './engine/fabric-engine';
import { hostedFabricEngine } from './host/hosted-fabric-engine';
import { YarcFabricSim } from './yarc/yarc-fabric-sim';
import { YarcMaintenanceController } from './yarc/yarc-maintenance';

export interface ChipModel {
  /** The model name routers of this kind carry in a fabric design. */
  readonly model: string;
  build(fabric: EmulatedFabric, seed: number): HostedEngine;
  /** The maintenance controller at the installation's maintenance attachment (its name in the file). */
  controller(engine: HostedEngine, attachment: string): MaintenanceTransport;
}

export const CHIP_MODELS: readonly ChipModel[] = [
  {
    model: 'YARC',
    build: (fabric, seed) => hostedFabricEngine(new YarcFabricSim(fabric, seed)),
    // Paper 000 §7.1: the maintenance controller is a processor of the fabric.
    controller: (engine, attachment) => {
      const sim = engine.traffic as YarcFabricSim;
      return new YarcMaintenanceController(sim, sim.fabric.design.chips[sim.fabric.chipId(attachment)].processor);
    },
  },
  {
    model: 'BGL-node',
    build: (fabric, seed) => new BglHostedEngine(fabric, seed),
    // Paper 002 §1: the JTAG control network, out of band.
    controller: (engine) => new BglMaintenanceController((engine as BglHostedEngine).sim),
  },
  {
    model: 'Anton2-ASIC',
    build: (fabric, seed) => new Anton2HostedEngine(fabric, seed),
    // Out of band, by packaging address (anton2-maintenance.ts).
    controller: (engine) => new Anton2MaintenanceController((engine as Anton2HostedEngine).sim),
  },
  {
    model: 'FB-router',
    build: (fabric, seed) => new FlatHostedEngine(fabric, seed),
    // Out of band, by the router's coordinates (flat-maintenance.ts).
    controller: (engine) => new FlatMaintenanceController((engine as FlatHostedEngine).sim, engine.fabric),
  },
];

/** A fabric's engine for traffic runs, or an error saying its chips take none from the host. */
export function trafficEngine(engine: HostedEngine): FabricEngine {
  if (!engine.traffic)
    throw new Error(`traffic runs are not taken by this fabric's chips (${engine.fabric.design.chips[0]?.model ?? 'none'}) through the host`);
  return engine.traffic;
}

/** The chip model of a fabric's routers; an error naming the models there are. */
export function chipModelOf(fabric: EmulatedFabric): ChipModel {
  const models = new Set(fabric.design.chips.filter((c) => c.kind === 'router').map((c) => c.model));
  if (models.size !== 1) throw new Error(`a fabric's routers must be of one chip model; this one has ${[...models].join(', ') || 'none'}`);
  const [model] = models;
  const found = CHIP_MODELS.find((m) => m.model === model);
  if (!found) throw new Error(`no chip model "${model}" in the emulator (models: ${CHIP_MODELS.map((m) => m.model).join(', ')})`);
  return found;
}
