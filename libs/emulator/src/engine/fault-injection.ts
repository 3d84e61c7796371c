/**
 * Physical faults on an emulated fabric, for every chip model (issue 56: one fault injection, not
 * one a family): a drill's or a technician's hands kill or replace a chip, cut or mend a cable, make
 * a lane noisy, or stop an endpoint's software reading what arrives. `applyPhysicalFault` checks the
 * fault against the chip as its model describes it — the chip's name, a port it has, a lane its
 * links have, a rate — naming what is wrong in the chip's own terms, and only then calls the model,
 * so that a refused fault leaves the fabric as it was. A model that cannot have something done (a
 * link layer without lanes, software that cannot be stopped) says why, in its FaultTarget.
 */
import type { EmulatedFabric } from '../emulated-fabric';
import type { PhysicalFault } from '../host/protocol';

/** What a chip model lets faults do to its fabric, and how it names its ports and lanes. */
export interface FaultTarget {
  readonly fabric: EmulatedFabric;
  /** Why chip `chip` cannot be killed or revived (null: it can) — a processor, say, where only routers die. */
  whyNotKillable(chip: number): string | null;
  /** The ports of chip `chip` a fault may name, and how they are called. */
  portsOf(chip: number): { readonly count: number; readonly described: string };
  /** The lanes of a link, and how they are called; or why a link has none to corrupt (a string). */
  readonly lanes: { readonly count: number; readonly described: string } | string;
  /** Why an endpoint's software cannot be stopped here (null: it can, on the ports whyNotAccepting allows). */
  whyNotAccepting(chip: number, port: number): string | null;
  killChip(chip: number): void;
  reviveChip(chip: number): void;
  setLinkDown(chip: number, port: number, down: boolean): void;
  setLaneBitErrorRate(chip: number, port: number, lane: number, rate: number): void;
  setAccepting(chip: number, port: number, accepting: boolean): void;
}

/** Does `fault` to the fabric; a fault the chips cannot have done is refused with a RangeError naming why, and changes nothing. */
export function applyPhysicalFault(target: FaultTarget, fault: PhysicalFault): void {
  const chip = target.fabric.chipId(fault.chip);
  const port = 'port' in fault ? checkedPort(target, chip, fault.chip, fault.port) : -1;
  switch (fault.action) {
    case 'kill-router':
    case 'revive-router': {
      const why = target.whyNotKillable(chip);
      if (why !== null) throw new RangeError(why);
      if (fault.action === 'kill-router') target.killChip(chip);
      else target.reviveChip(chip);
      return;
    }
    case 'cut-link':
    case 'restore-link':
      target.setLinkDown(chip, port, fault.action === 'cut-link');
      return;
    case 'lane-bit-error-rate': {
      const lanes = target.lanes;
      if (typeof lanes === 'string') throw new RangeError(lanes);
      if (!(Number.isInteger(fault.lane) && fault.lane >= 0 && fault.lane < lanes.count)) throw new RangeError(`${lanes.described}, got ${fault.lane}`);
      if (!(fault.rate >= 0 && fault.rate <= 1)) throw new RangeError(`a bit error rate is 0 to 1, got ${fault.rate}`);
      target.setLaneBitErrorRate(chip, port, fault.lane, fault.rate);
      return;
    }
    case 'stop-accepting':
    case 'resume-accepting': {
      const why = target.whyNotAccepting(chip, port);
      if (why !== null) throw new RangeError(why);
      target.setAccepting(chip, port, fault.action === 'resume-accepting');
      return;
    }
  }
}

function checkedPort(target: FaultTarget, chip: number, name: string, port: number): number {
  const ports = target.portsOf(chip);
  if (!(Number.isInteger(port) && port >= 0 && port < ports.count)) throw new RangeError(`"${name}" ${ports.described}, got ${port}`);
  return port;
}
