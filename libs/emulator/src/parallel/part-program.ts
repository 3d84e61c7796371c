/**
 * What runs beside a fabric's parts when they run on threads of their own (part-threads.ts): the
 * traffic each part injects before each of its cycles, when a part is done, and what it records of
 * its deliveries. A thread cannot call a function of another, so a program is built on each thread
 * from a spec — a registered name and arguments that can cross (numbers, and typed arrays in shared
 * memory, such as the random streams' states) — over that thread's view of the fabric. Whatever a
 * part's program keeps outside shared memory it hands back at the end of the run (exportPart), and
 * the main thread's program takes it over (adoptPart).
 */
import type { FabricEngine } from '../engine/fabric-engine';
import type { SharedState } from '../engine/shared-state';

export interface PartProgramSpec {
  readonly name: string;
  readonly args: SharedState;
}

export interface PartProgram {
  /** How to build the same program on another thread. */
  readonly spec: PartProgramSpec;
  /** Makes part `part`'s traffic of cycle `cycle`, before the part evaluates it. */
  readonly beforeCycle: (part: number, cycle: number) => void;
  /** With it, a run ends once every part is done (see FabricEngine.runWindowed). */
  readonly partDone?: (part: number) => boolean;
  /** Told of each of the thread's deliveries (a packet's handle and its cycle). */
  readonly onDeliver?: (packet: number, cycle: number) => void;
  /** What part `part`'s program kept outside shared memory during the run. */
  exportPart?(part: number): unknown;
  adoptPart?(part: number, state: unknown): void;
}

export type PartProgramFactory = (engine: FabricEngine, args: SharedState) => PartProgram;

const PROGRAMS = new Map<string, PartProgramFactory>();

/** Registers a program by name; a thread builds it with `buildPartProgram`. */
export function registerPartProgram(name: string, factory: PartProgramFactory): void {
  if (PROGRAMS.has(name)) throw new Error(`a part program "${name}" is registered already`);
  PROGRAMS.set(name, factory);
}

export function buildPartProgram(engine: FabricEngine, spec: PartProgramSpec): PartProgram {
  const factory = PROGRAMS.get(spec.name);
  if (!factory) throw new Error(`no part program "${spec.name}" (programs: ${[...PROGRAMS.keys()].join(', ') || 'none'})`);
  return factory(engine, spec.args);
}
