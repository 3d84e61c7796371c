/**
 * Entry point of a part thread (part-threads.ts): it builds each fabric it is given from its design,
 * takes over the fabric's state from shared memory, and runs the parts it is given, window by
 * window, as the main thread says. Every command is answered, errors included, and the answer is
 * signalled on the control word, since the main thread waits for it without an event loop.
 */
// First: the main thread must learn of this thread's end whatever ends it.
import './part-worker-guard';
import { workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { EmulatedFabric } from '../emulated-fabric';
import { chipModelOf, trafficEngine } from '../chip-models';
import type { FabricEngine } from '../engine/fabric-engine';
import { buildPartProgram } from './part-program';
import type { PartProgram } from './part-program';
import { PartCommand, PartInterrupt, PartReply } from './part-protocol';
import './part-programs';
// Registers the traffic runs' program.
import '../traffic/traffic-request';

const { port, control } = workerData as { port: MessagePort; control: Int32Array };

const engines = new Map<number, FabricEngine>();
let run: { engine: FabricEngine; parts: readonly number[]; program: PartProgram; interrupts: PartInterrupt[]; window: number; part: number } | null = null;

function handle(command: PartCommand): PartReply {
  switch (command.type) {
    case 'begin': {
      let engine = engines.get(command.fabricId);
      if (!engine) {
        if (!command.design) throw new Error(`fabric ${command.fabricId} was not given to this thread`);
        const fabric = new EmulatedFabric(command.design);
        engine = trafficEngine(chipModelOf(fabric).build(fabric, command.seed));
        engines.set(command.fabricId, engine);
      }
      engine.adoptSharedState(command.state);
      const program = buildPartProgram(engine, command.program);
      const state = { engine, parts: command.parts, program, interrupts: [] as PartInterrupt[], window: 0, part: -1 };
      engine.onDeliver = program.onDeliver ?? (() => undefined);
      engine.onInterrupt = (...args) => state.interrupts.push({ window: state.window, part: state.part, args });
      run = state;
      return { type: 'ok' };
    }
    case 'run': {
      const r = current();
      r.window = command.window;
      const doneAt = r.parts.map((p) => {
        r.part = p;
        return r.engine.runPart(p, command.from, command.until, r.program.beforeCycle, command.untilDone ? r.program.partDone : undefined);
      });
      return { type: 'ran', doneAt };
    }
    case 'catch-up': {
      const r = current();
      r.parts.forEach((p, i) => {
        r.part = p;
        if (command.from[i] >= 0 && command.from[i] < command.until) r.engine.runPart(p, command.from[i], command.until, r.program.beforeCycle);
      });
      return { type: 'ran', doneAt: [] };
    }
    case 'end': {
      const r = current();
      run = null;
      return {
        type: 'ended',
        parts: r.parts.map((p) => ({ part: p, state: r.engine.partState(p), program: r.program.exportPart?.(p) })),
        interrupts: r.interrupts,
      };
    }
    case 'forget':
      engines.delete(command.fabricId);
      return { type: 'ok' };
  }
}

function current(): NonNullable<typeof run> {
  if (run === null) throw new Error('no run has begun on this thread');
  return run;
}

port.on('message', (command: PartCommand) => {
  let reply: PartReply;
  try {
    reply = handle(command);
  } catch (error) {
    run = null;
    reply = { type: 'error', message: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
  Atomics.add(control, 0, 1);
  Atomics.notify(control, 0);
});
