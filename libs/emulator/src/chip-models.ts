/**
 * The chip models the emulator carries, one row each (issue 35, capability 2): each builds the
 * fabric engine for a fabric of its chips and the maintenance controller an installation attaches
 * to it. The host picks the row by the model of the fabric's routers; a family arrives as a folder
 * plus a row here.
 */
import type { MaintenanceTransport } from '@weft/fabric-model';
import type { EmulatedFabric } from './emulated-fabric';
import type { FabricEngine } from './engine/fabric-engine';
import { YarcFabricSim } from './yarc/yarc-fabric-sim';
import { YarcMaintenanceController } from './yarc/yarc-maintenance';

export interface ChipModel {
  /** The model name routers of this kind carry in a fabric design. */
  readonly model: string;
  build(fabric: EmulatedFabric, seed: number): FabricEngine;
  /** The maintenance controller at endpoint `attachment` (the installation's maintenance attachment). */
  controller(engine: FabricEngine, attachment: number): MaintenanceTransport;
}

export const CHIP_MODELS: readonly ChipModel[] = [
  {
    model: 'YARC',
    build: (fabric, seed) => new YarcFabricSim(fabric, seed),
    controller: (engine, attachment) => new YarcMaintenanceController(engine as YarcFabricSim, attachment),
  },
];

/** The chip model of a fabric's routers; an error naming the models there are. */
export function chipModelOf(fabric: EmulatedFabric): ChipModel {
  const models = new Set(fabric.design.chips.filter((c) => c.kind === 'router').map((c) => c.model));
  if (models.size !== 1) throw new Error(`a fabric's routers must be of one chip model; this one has ${[...models].join(', ') || 'none'}`);
  const [model] = models;
  const found = CHIP_MODELS.find((m) => m.model === model);
  if (!found) throw new Error(`no chip model "${model}" in the emulator (models: ${CHIP_MODELS.map((m) => m.model).join(', ')})`);
  return found;
}
