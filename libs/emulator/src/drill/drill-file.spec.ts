import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FABRIC_FAMILY_MODELS, loadInstallationFile } from '@weft/fabric-model';
import { validateTrafficRequest } from '../traffic/traffic-request';
import { checkDrillTargets, DrillFileError, drillTrafficRequest, validateDrillFile } from './drill-file';

const drills = join(__dirname, '../../../../fixtures/drills');

describe('drill files', () => {
  it('the shipped drills are valid, their targets and traffic those of the fabrics they name', () => {
    const files = readdirSync(drills).filter((f) => f.endsWith('.json'));
    expect(files.sort()).toEqual([
      'anton2-dead-asic-under-load.json',
      'anton2-dead-channel-under-load.json',
      'anton2-multicast-with-fault.json',
      'anton2-noisy-channel.json',
      'bgl-cable-cut.json',
      'bgl-node-death-under-load.json',
      'bgl-noisy-cable.json',
      'bgl-three-co-linear-dead-nodes.json',
      'bgl-three-dead-nodes.json',
      'cable-cut-under-load.json',
      'faults-then-repairs.json',
      'fb-dead-link-under-adversarial-load.json',
      'fb-dead-router.json',
      'fb-redundant-channel-failing.json',
      'noisy-lane.json',
      'router-death.json',
      'stuck-endpoint.json',
    ]);
    for (const file of files) {
      const drill = validateDrillFile(JSON.parse(readFileSync(join(drills, file), 'utf8')));
      expect(drill.name).toBe(file.replace('.json', ''));
      // Every chip and port the timeline touches exists and is cabled in the fabric it names.
      const design = loadInstallationFile(join(__dirname, '../../../../fixtures', `${drill.fabric}.json`)).physical;
      expect(checkDrillTargets(drill, design)).toEqual([]);
      const shape = FABRIC_FAMILY_MODELS[design.family].trafficShape(design.summary);
      expect(validateTrafficRequest(drillTrafficRequest(drill, 1, design), shape)).toEqual([]);
    }
  });

  it('refuses traffic the fabric cannot carry, naming it', () => {
    const design = loadInstallationFile(join(__dirname, '../../../../fixtures/bgl/bgl-midplane-512.json')).physical;
    const shape = FABRIC_FAMILY_MODELS.bgl.trafficShape(design.summary);
    const drill = validateDrillFile(JSON.parse(readFileSync(join(drills, 'bgl-cable-cut.json'), 'utf8')));
    expect(validateTrafficRequest({ ...drillTrafficRequest(drill, 1, design), packetPhits: 19, slices: [0, 1] }, shape)).toEqual([
      '$.packetPhits: packet size must be 32..256 phits, got 19',
      '$.slices[1]: the fabric has slices 0 to 0, got 1',
    ]);
  });

  it('names chips and ports the fabric does not have', () => {
    // One R1 per slice: its ports 32–63 have nothing plugged in.
    const design = loadInstallationFile(join(__dirname, '../../../../fixtures/blackwidow/bw-r1-32.json')).physical;
    const drill = validateDrillFile({
      ...JSON.parse(readFileSync(join(drills, 'cable-cut-under-load.json'), 'utf8')),
      fabric: 'blackwidow/bw-r1-32',
      timeline: [
        { atNs: 1, action: 'cut-link', chip: 's0.r1.0', port: 40 },
        { atNs: 2, action: 'kill-router', chip: 'p3' },
        { atNs: 3, action: 'cut-link', chip: 's9.r1.0', port: 40 },
      ],
    });
    expect(checkDrillTargets(drill, design)).toEqual([
      '$.timeline[0].port: s0.r1.0 has no cable on port 40',
      '$.timeline[1].chip: "p3" is not a router',
      '$.timeline[2].chip: blackwidow/bw-r1-32 has no chip "s9.r1.0"',
    ]);
  });

  it('names every problem with its path', () => {
    const broken = {
      format: 'weft-drill/1',
      name: 'broken',
      fabric: 'blackwidow/bw-r1.5-288',
      traffic: { pattern: { kind: 'uniform-random' }, load: 2, packetPhits: 4, slices: [0], seed: 1, multicast: { fraction: 2 } },
      routing: { multicastGroups: 'all of them' },
      durationNs: 1_000_000,
      timeline: [
        { atNs: 500_000, action: 'cut-link', chip: 's0.r1.2' },
        { atNs: 400_000, action: 'melt-router', chip: 's0.r1.3' },
        { atNs: 2_000_000, action: 'lane-bit-error-rate', chip: 's0.r1.1', port: 33, lane: 3, rate: 0.1 },
      ],
      expectations: { unaccounted: 1, events: ['LINK_DOWN', 'TEA_BREAK'], discardDrainNS: 20_000 },
    };
    let problems: readonly string[] = [];
    try {
      validateDrillFile(broken);
    } catch (error) {
      problems = (error as DrillFileError).problems;
    }
    expect(problems).toEqual([
      '$.routing.multicastGroups: must be a list of groups',
      '$.traffic.multicast.fraction: must be a number from 0 to 1, got 2',
      '$.traffic.multicast: needs groups to send to: $.routing.multicastGroups',
      '$.traffic.load: must be a number from 1e-7 to 1, got 2',
      '$.timeline[0].port: must be a whole number from 0 to 255, got undefined',
      '$.timeline[1].atNs: must not be earlier than the step before it (500000 ns)',
      '$.timeline[1].action: must be one of cut-link, restore-link, lane-bit-error-rate, kill-router, revive-router, stop-accepting, resume-accepting, declare-fault, clear-fault, got "melt-router"',
      '$.timeline[2].atNs: must be a number from 0 to 1000000, got 2000000',
      '$.timeline[2].lane: must be a whole number from 0 to 2, got 3',
      '$.expectations.discardDrainNS: is not a setting here (known: maxHealNs, unaccounted, throughputAfterFraction, events, discardDrainNs)',
      '$.expectations.unaccounted: must be a whole number from 0 to 0, got 1',
      '$.expectations.events[1]: must be one of FORWARD_PROGRESS_TIMEOUT, LANE_DECOMMISSIONED, LINK_DOWN, LINK_UP, ROUTER_UNRESPONSIVE, SOFT_ERROR, CONFIGURATION_ERROR, GENERATION_COMPUTED, GENERATION_PUSHED, FAULT_DECLARED, FAULT_CLEARED, DRILL_STEP, got "TEA_BREAK"',
    ]);
  });
});
