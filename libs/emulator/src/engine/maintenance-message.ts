/**
 * What a maintenance packet carries (a source-routed packet, paper 000 §4.1, or an access by
 * address over an out-of-band control network), and a chip's serial number.
 */

/** The payload of a maintenance packet: a register access, or its answer. */
export interface MaintenanceMessage {
  readonly requestId: number;
  readonly op: 'read' | 'write' | 'response';
  readonly register: string;
  readonly index: number;
  /** For a write to several indices at once (e.g. every tile of a virtual router): all of them;
   * `index` is then the first. */
  readonly indices?: readonly number[];
  readonly value: readonly number[];
  /** Set on responses: what went wrong at the chip, if anything. */
  readonly error?: 'no-such-register' | 'rejected';
  readonly detail?: string;
}

/** The answer to a maintenance request: its value, or why it failed. */
export function answerTo(request: MaintenanceMessage, value: readonly number[], error?: MaintenanceMessage['error'], detail?: string): MaintenanceMessage {
  return { requestId: request.requestId, op: 'response', register: request.register, index: request.index, value, error, detail };
}

/** A stable serial number for a chip (its identity register), so the control plane can tell
 * chips apart without ever seeing the emulator's names for them. */
export function chipSerial(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
