/**
 * What the service needs of an engine whose images are registers written chip by chip over a
 * control network (BG/L's nodes, Anton 2's ASICs), whatever the chip: the push plan from what the
 * chips hold, reconciling by reading back, a chip's registers compared, and the triage of link
 * interrupts by probing the far end. A family gives its chips' write list and its words.
 */
import type { CableEnd, FabricDesign, InterruptRecord, MaintenanceTransport } from '@weft/fabric-model';
import type { TriageContext, TriageDecision } from '../automation/fault-triage';
import type { RegisterChange, RouterDiff } from './chip-diff';
import type { PlannedWrite, PushPlan, ReconcileReport } from './push-plan';
import { indexKnownFabric } from '../discovery/known-fabric';

/** A chip image that is written register by register: its name and control-network route. */
export interface RegisterChip {
  readonly name: string;
  readonly route: readonly number[];
}

/** A chip image's registers as the writes that put them in place, always in the same order. */
export type WritesOf<C> = (chip: C) => readonly { readonly register: string; readonly index: number; readonly value: readonly number[] }[];

/** Whether two registers hold the same words (the very array first). */
export function sameWords(a: readonly number[], b: readonly number[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * A chip's image after a computation, from its image before (issue 55: what did not change is
 * taken by identity downstream): `old` itself where none of `registers` changed, else a copy of it
 * with each changed register's new words — the unchanged ones keep their arrays. `wordsOf` gives a
 * register's words as computed now.
 */
export function keepUnchanged<C extends object, R extends keyof C & string>(old: C, registers: readonly R[], wordsOf: (register: R) => readonly number[]): C {
  let next: C | null = null;
  for (const register of registers) {
    const words = wordsOf(register);
    if (sameWords(old[register] as readonly number[], words)) continue;
    next ??= { ...old };
    (next as Record<string, unknown>)[register] = words;
  }
  return next ?? old;
}

/** The writes that make the chips hold `next` from `held` (null: unknown, every register): one phase named `phase`, only what differs. */
export function planRegisterPush<C extends RegisterChip>(
  held: { readonly routers: readonly C[] } | null,
  next: { readonly routers: readonly C[] },
  writesOf: WritesOf<C>,
  phase: string,
): PushPlan {
  const before = new Map((held?.routers ?? []).map((r) => [r.name, r]));
  const writes: PlannedWrite[] = [];
  for (const node of next.routers) {
    const old = before.get(node.name);
    if (old === node) continue;
    const oldWrites = old ? writesOf(old) : null;
    writesOf(node).forEach((w, k) => {
      if (oldWrites && sameWords(oldWrites[k].value, w.value)) return;
      writes.push({ router: node.name, route: node.route, register: w.register, indices: [w.index], value: w.value });
    });
  }
  return { phases: writes.length > 0 ? [{ name: phase, writes }] : [] };
}

/** Makes the chips hold `image` whatever they hold: reads every register block back and rewrites what differs. */
export async function reconcileRegisterImage<C extends RegisterChip>(
  transport: MaintenanceTransport,
  image: { readonly routers: readonly C[] },
  writesOf: WritesOf<C>,
): Promise<ReconcileReport> {
  const failures: ReconcileReport['failures'][number][] = [];
  let checked = 0;
  let rewritten = 0;
  for (const node of image.routers) {
    for (const w of writesOf(node)) {
      checked++;
      const held = await transport.read(node.route, w.register, w.index);
      if (!held.ok) {
        failures.push({ router: node.name, register: w.register, detail: `${held.reason}: ${held.detail}` });
        continue;
      }
      if (sameWords(held.value, w.value)) continue;
      rewritten++;
      const written = await transport.write(node.route, w.register, w.index, [...w.value]);
      if (!written.ok) failures.push({ router: node.name, register: w.register, detail: `${written.reason}: ${written.detail}` });
    }
  }
  return { checked, rewritten, failures };
}

/** Register by register, in the chip's terms (`meaningOf`), what differs between two images of a chip. */
export function diffRegisterImage<C extends RegisterChip>(
  chip: string,
  before: C | undefined,
  after: C | undefined,
  writesOf: WritesOf<C>,
  meaningOf: (register: string, before: readonly number[] | null, after: readonly number[] | null) => string,
): RouterDiff | undefined {
  const changes: RegisterChange[] = [];
  const was = before ? writesOf(before) : null;
  const now = after ? writesOf(after) : null;
  const registers = (now ?? was ?? []).map((w) => w.register);
  registers.forEach((register, k) => {
    const a = was?.[k]?.value ?? null;
    const b = now?.[k]?.value ?? null;
    if (a && b && sameWords(a, b)) return;
    changes.push({ register, target: 'node', before: a, after: b, meaning: meaningOf(register, a, b) });
  });
  return changes.length > 0 ? { chip, changes } : undefined;
}

/** Each design cable end's far end, by chip and port — made once per design (issue 55: remade per batch it cost 170 ms of a 65,536-terminal reaction). */
const farEnds = new WeakMap<FabricDesign, Map<string, CableEnd[]>>();

function farEndsOf(design: FabricDesign): Map<string, CableEnd[]> {
  let ends = farEnds.get(design);
  if (ends) return ends;
  ends = new Map();
  const at = (chip: string) => {
    let ports = ends!.get(chip);
    if (!ports) ends!.set(chip, (ports = []));
    return ports;
  };
  for (const cable of design.cables) {
    at(cable.a.chip)[cable.a.port] = cable.b;
    at(cable.b.chip)[cable.b.port] = cable.a;
  }
  farEnds.set(design, ends);
  return ends;
}

/**
 * What a batch of interrupts means on a torus managed over a control network. A link-down is probed
 * at its far end over the control network, which does not cross the torus: a far chip that does
 * not answer is dead (its neighbours all report, one declaration serves), one that answers means
 * the cable is. A link-up clears what interrupts declared: a dead chip that answers again, or a cable.
 */
export async function triageControlNetworkInterrupts(
  interrupts: readonly InterruptRecord[],
  transport: MaintenanceTransport,
  context: TriageContext,
  chips: {
    readonly identityRegister: string;
    /** The register that reads every link's state, three words a port, the first 1 where it is up. */
    readonly linkStatesRegister: string;
    readonly called: string;
    readonly portName: (port: number) => string;
  },
): Promise<TriageDecision[]> {
  const index = indexKnownFabric(context.known);
  const nameOf = context.known.matched.names;
  const designFar = farEndsOf(context.known.design);
  const decisions: TriageDecision[] = [];
  const decided = new Set<string>();
  const answers = new Map<string, boolean>();
  const answering = async (chip: string): Promise<boolean> => {
    let known = answers.get(chip);
    if (known === undefined) {
      const route = index.sweptRoute.get(chip) ?? context.known.discovered.chips.find((c) => nameOf.get(c.serial) === chip)?.route;
      known = route ? (await transport.read(route, chips.identityRegister)).ok : false;
      answers.set(chip, known);
    }
    return known;
  };
  const linkUpNow = async (chip: string, port: number): Promise<boolean> => {
    const route = index.sweptRoute.get(chip);
    if (!route) return false;
    const states = await transport.read(route, chips.linkStatesRegister);
    return states.ok && states.value[3 * port] === 1;
  };
  for (const interrupt of interrupts) {
    const chip = nameOf.get(interrupt.serial) ?? null;
    const port = interrupt.port ?? null;
    if (!chip) {
      decisions.push({ action: 'none', chip: null, port, reason: `an interrupt from serial ${interrupt.serial}, which discovery did not find` });
      continue;
    }
    switch (interrupt.kind) {
      case 'LINK_DOWN': {
        const far = port !== null ? designFar.get(chip)?.[port] : undefined;
        if (!far || port === null) {
          decisions.push({ action: 'none', chip, port, reason: 'a link the design does not cable went down' });
          break;
        }
        if (!(await answering(far.chip))) {
          if (!decided.has(`router:${far.chip}`) && !context.faults.routers.has(far.chip)) {
            decisions.push({
              action: 'declare',
              kind: 'router',
              chip: far.chip,
              port: null,
              reason: `${chip} lost its ${chips.portName(port)} link and ${far.chip} does not answer on the control network`,
            });
          }
          decided.add(`router:${far.chip}`);
        } else if (!decided.has(`link:${chip}:${port}`) && !decided.has(`link:${far.chip}:${far.port}`) && !context.faults.hasPort(chip, port)) {
          // A link down and up again before this was handled (a chip that died and was replaced at
          // once) is no cable fault: its link-up is handled on its own.
          if (await linkUpNow(chip, port)) {
            decisions.push({ action: 'none', chip, port, reason: `${chip}:${port} went down and is up again` });
            break;
          }
          decisions.push({
            action: 'declare',
            kind: 'link',
            chip,
            port,
            reason: `the cable ${chip}:${port}–${far.chip}:${far.port} went down; both ${chips.called}s answer`,
          });
          decided.add(`link:${chip}:${port}`);
        }
        break;
      }
      case 'LINK_UP': {
        const far = port !== null ? designFar.get(chip)?.[port] : undefined;
        for (const fault of context.interruptFaults) {
          const key = `${fault.kind}:${fault.chip}:${fault.port}`;
          if (decided.has(`clear:${key}`)) continue;
          const deadFar = fault.kind === 'router' && far && fault.chip === far.chip && (await answering(far.chip));
          const cable = fault.kind === 'link' && ((fault.chip === chip && fault.port === port) || (far && fault.chip === far.chip && fault.port === far.port));
          if (deadFar || cable) {
            decisions.push({
              action: 'clear',
              kind: fault.kind as 'link' | 'router',
              chip: fault.chip,
              port: fault.port,
              reason: `${chip}:${port} is up again`,
            });
            decided.add(`clear:${key}`);
          }
        }
        break;
      }
      case 'FORWARD_PROGRESS_TIMEOUT':
        decisions.push({
          action: 'none',
          chip,
          port,
          reason: 'no packet has moved for the watchdog time: the ring waiting is in the interrupt; a configuration does not mend a deadlock',
        });
        break;
      case 'LANE_DECOMMISSIONED':
      case 'SOFT_ERROR':
      case 'CONFIGURATION_ERROR':
        decisions.push({ action: 'none', chip, port, reason: `${interrupt.kind} is reported, not routed around` });
        break;
    }
  }
  return decisions;
}
