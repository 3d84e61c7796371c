import { generateBglDesign } from '@weft/fabric-model';
import { EmulatedFabric } from '../emulated-fabric';
import { applyPhysicalFault, FaultTarget } from './fault-injection';

/** A chip model's fault hooks that record what they were asked to do. */
function recordingTarget(): { target: FaultTarget; done: string[] } {
  const done: string[] = [];
  const fabric = new EmulatedFabric(generateBglDesign({ shape: [2, 2, 2], midplaneLinkCycles: 3, cableLinkCycles: 10 }));
  const target: FaultTarget = {
    fabric,
    whyNotKillable: (chip) => (chip === 7 ? 'that one is a spare' : null),
    portsOf: () => ({ count: 6, described: 'has ports 0 to 5' }),
    lanes: { count: 1, described: 'a link is one lane: lane 0' },
    whyNotAccepting: (_chip, port) => (port === 5 ? 'port 5 has no software' : null),
    killChip: (chip) => done.push(`kill ${chip}`),
    reviveChip: (chip) => done.push(`revive ${chip}`),
    setLinkDown: (chip, port, down) => done.push(`${down ? 'cut' : 'mend'} ${chip}:${port}`),
    setLaneBitErrorRate: (chip, port, lane, rate) => done.push(`noise ${chip}:${port}.${lane} ${rate}`),
    setAccepting: (chip, port, accepting) => done.push(`${accepting ? 'read' : 'stop'} ${chip}:${port}`),
  };
  return { target, done };
}

describe('physical faults, one injection for every chip model', () => {
  it('does each fault to the chip and port named', () => {
    const { target, done } = recordingTarget();
    const chip = target.fabric.chipNames[1];
    applyPhysicalFault(target, { action: 'cut-link', chip, port: 2 });
    applyPhysicalFault(target, { action: 'restore-link', chip, port: 2 });
    applyPhysicalFault(target, { action: 'lane-bit-error-rate', chip, port: 3, lane: 0, rate: 0.25 });
    applyPhysicalFault(target, { action: 'kill-router', chip });
    applyPhysicalFault(target, { action: 'revive-router', chip });
    applyPhysicalFault(target, { action: 'stop-accepting', chip, port: 0 });
    applyPhysicalFault(target, { action: 'resume-accepting', chip, port: 0 });
    expect(done).toEqual(['cut 1:2', 'mend 1:2', 'noise 1:3.0 0.25', 'kill 1', 'revive 1', 'stop 1:0', 'read 1:0']);
  });

  it('refuses what the chips cannot have done, naming why, and does nothing', () => {
    const { target, done } = recordingTarget();
    const chip = target.fabric.chipNames[1];
    expect(() => applyPhysicalFault(target, { action: 'cut-link', chip: 'nowhere', port: 0 })).toThrow('no chip "nowhere" in this fabric');
    expect(() => applyPhysicalFault(target, { action: 'cut-link', chip, port: 6 })).toThrow(`"${chip}" has ports 0 to 5, got 6`);
    expect(() => applyPhysicalFault(target, { action: 'cut-link', chip, port: 1.5 })).toThrow('got 1.5');
    expect(() => applyPhysicalFault(target, { action: 'lane-bit-error-rate', chip, port: 0, lane: 1, rate: 0.1 })).toThrow('a link is one lane: lane 0, got 1');
    expect(() => applyPhysicalFault(target, { action: 'lane-bit-error-rate', chip, port: 0, lane: 0, rate: 1.5 })).toThrow(
      'a bit error rate is 0 to 1, got 1.5',
    );
    expect(() => applyPhysicalFault(target, { action: 'kill-router', chip: target.fabric.chipNames[7] })).toThrow('that one is a spare');
    expect(() => applyPhysicalFault(target, { action: 'stop-accepting', chip, port: 5 })).toThrow('port 5 has no software');
    expect(done).toEqual([]);
  });
});
