/** What the main thread and a part thread say to each other (part-threads.ts, part-worker.ts). */
import type { FabricDesign } from '@weft/fabric-model';
import type { InterruptListener } from '../engine/fabric-engine';
import type { SharedState } from '../engine/shared-state';
import type { PartProgramSpec } from './part-program';

/** An interrupt a part raised while the parts ran apart: replayed in window, then part order. */
export interface PartInterrupt {
  readonly window: number;
  readonly part: number;
  readonly args: Parameters<InterruptListener>;
}

export type PartCommand =
  /** A run begins: the fabric (its design, the first time), its state, the program, this thread's parts. */
  | { type: 'begin'; fabricId: number; design?: FabricDesign; seed: number; state: SharedState; program: PartProgramSpec; parts: readonly number[] }
  /** Window `window`: each part from `from` up to `until`, stopping once done if `untilDone`. */
  | { type: 'run'; window: number; from: number; until: number; untilDone: boolean }
  /** Each part from its `from` (-1: none) up to `until`, without asking whether it is done. */
  | { type: 'catch-up'; from: readonly number[]; until: number }
  | { type: 'end' }
  | { type: 'forget'; fabricId: number };

export type PartReply =
  | { type: 'ok' }
  | { type: 'ran'; doneAt: readonly number[] }
  | { type: 'ended'; parts: readonly { part: number; state: SharedState; program: unknown }[]; interrupts: readonly PartInterrupt[] }
  | { type: 'error'; message: string };
