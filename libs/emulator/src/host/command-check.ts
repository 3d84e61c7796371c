/**
 * The shape of a command arriving over a fabric process's socket, checked before the host sees it
 * (issue 54: a malformed frame crashed the process, and every emulated fabric in it was lost). Only
 * the envelope is checked here — which command, its ids, routes and values; what a command carries
 * whole (an installation, a traffic request, a fault) is checked by the host as it uses it, and a
 * refusal is an error answer either way. Zod, the schema library made for checking untrusted
 * messages in TypeScript, says where a message is wrong.
 */
import { z } from 'zod';
import type { HostCommand } from './protocol';

const id = z.number().int().nonnegative();
const fabricId = z.number().int().nonnegative();
const port = z.number().int().min(0).max(65_535);
const route = z.array(port).max(64);
const register = z.string().min(1).max(200);
const index = z.number().int().nonnegative();
const value = z.array(z.number()).max(1 << 16);
const nanoseconds = z.number().nonnegative().max(Number.MAX_SAFE_INTEGER);
const whole = z.looseObject({});

const COMMAND = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hello'), term: z.number().int().positive().max(Number.MAX_SAFE_INTEGER), proof: z.string() }),
  z.object({ type: z.literal('attach'), fabricId, physical: whole, attachment: z.string().max(200), seed: z.number().int() }),
  z.object({ type: z.literal('detach'), fabricId }),
  z.object({ type: z.literal('read'), id, fabricId, route, register, index }),
  z.object({
    type: z.literal('read-many'),
    id,
    fabricId,
    routes: z.object({ ports: z.instanceof(Float64Array), offsets: z.instanceof(Uint32Array) }).refine(packedRoutesHold, {
      message: 'offsets must start at 0 and rise to at most the number of ports',
    }),
    register,
    concurrency: z
      .number()
      .int()
      .min(1)
      .max(1 << 20),
    parts: z.boolean().optional(),
  }),
  z.object({ type: z.literal('write'), id, fabricId, route, register, index, value }),
  z.object({ type: z.literal('write-many'), id, fabricId, route, register, indices: z.array(index).max(1 << 16), value }),
  z.object({
    type: z.literal('write-batch'),
    id,
    fabricId,
    writes: z.array(z.object({ route, register, indices: z.array(index).max(1 << 16), value, whole: z.boolean().optional() })).max(1 << 16),
    concurrency: z
      .number()
      .int()
      .min(1)
      .max(1 << 20),
  }),
  z.object({ type: z.literal('status'), id }),
  z.object({ type: z.literal('fault'), id, fabricId, fault: whole }),
  z.object({ type: z.literal('traffic'), id, fabricId, request: whole }),
  z.object({ type: z.literal('traffic-stop'), id, fabricId, drainLimit: z.number().int().nonnegative() }),
  z.object({ type: z.literal('mark'), id, fabricId, label: z.string().max(200) }),
  z.object({ type: z.literal('pause-at'), id, fabricId, atNs: nanoseconds }),
  z.object({ type: z.literal('resume'), id, fabricId }),
  z.object({ type: z.literal('embargo'), id, fabricId, untilNs: nanoseconds }),
]);

function packedRoutesHold(routes: { ports: Float64Array; offsets: Uint32Array }): boolean {
  const { ports, offsets } = routes;
  if (offsets.length === 0 || offsets[0] !== 0 || offsets[offsets.length - 1] > ports.length) return false;
  for (let k = 1; k < offsets.length; k++) if (offsets[k] < offsets[k - 1] || offsets[k] - offsets[k - 1] > 64) return false;
  return true;
}

/** The command, or what is wrong with it (the first problem, with where it is). */
export function checkHostCommand(message: unknown): { command: HostCommand } | { problem: string; id?: number } {
  const parsed = COMMAND.safeParse(message);
  if (parsed.success) return { command: message as HostCommand };
  const issue = parsed.error.issues[0];
  const where = issue.path.length > 0 ? issue.path.join('.') : 'the message';
  const given = (message as { id?: unknown } | null)?.id;
  return { problem: `malformed command: ${where}: ${issue.message}`, ...(Number.isSafeInteger(given) ? { id: given as number } : {}) };
}
