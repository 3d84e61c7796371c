/**
 * Route analyses at the size the issue measured them (issue 54 §11: uniform traffic's channel load
 * on a BlueGene/L midplane cost 41.3 s of CPU against 1.75 s on the 288-processor BlackWidow): each
 * family's quick count beside the general walk through its chips' decisions (old and new, the same
 * loads), one plane of uniform traffic, every ordered pair of endpoints.
 */
import { join } from 'node:path';
import {
  Anton2RoutingEngine,
  BglImage,
  BglRoutingEngine,
  blackWidowForwarding,
  channelLoad,
  configureBlackWidow,
  DEFAULT_ANTON2_CONFIGURATION,
  discoverAnton2,
  discoverBgl,
  discoverFabric,
  driveEngine,
  FaultSet,
  Forwarding,
  matchDesign,
  patternFlows,
  pushBglImage,
  routingEngineOf,
} from '@weft/control';
import {
  Anton2MaintenanceController,
  Anton2Sim,
  BglMaintenanceController,
  BglTorusSim,
  EmulatedFabric,
  runUntilSettled,
  YarcFabricSim,
  YarcMaintenanceController,
} from '@weft/emulator';
import { generateAnton2Design, loadInstallationFile, shippedAnton2Floorplan } from '@weft/fabric-model';
import { Benchmark, collectGarbage, timed } from './harness';

const FIXTURES = join(__dirname, '../../../fixtures');

async function bglMidplane(): Promise<Forwarding> {
  const installation = loadInstallationFile(join(FIXTURES, 'bgl/bgl-midplane-512.json'));
  const jtag = new BglMaintenanceController(new BglTorusSim(new EmulatedFabric(installation.physical), 1));
  const known = await discoverBgl(jtag, installation.expected);
  const image = driveEngine(new BglRoutingEngine(known), FaultSet.NONE).computed.image as BglImage;
  await pushBglImage(jtag, null, image);
  return routingEngineOf('bgl').forwarding!(known, image);
}

async function anton2Cube(): Promise<Forwarding> {
  const design = generateAnton2Design({ shape: [8, 8, 8], backplaneChannelNs: 2, cableChannelNs: 10 });
  const sim = new Anton2Sim(new EmulatedFabric(design), shippedAnton2Floorplan(), 1);
  const known = await discoverAnton2(new Anton2MaintenanceController(sim), design);
  const image = new Anton2RoutingEngine(known, DEFAULT_ANTON2_CONFIGURATION).compute(FaultSet.NONE).image;
  return routingEngineOf('anton2').forwarding!(known, image);
}

async function blackWidow288(): Promise<Forwarding> {
  const installation = loadInstallationFile(join(FIXTURES, 'blackwidow/bw-r1.5-288.json'));
  const sim = new YarcFabricSim(new EmulatedFabric(installation.physical));
  const discovered = await runUntilSettled(sim, discoverFabric(new YarcMaintenanceController(sim, 0), { controllerPorts: [0, 1, 2, 3] }), 1e9, 2_000);
  const known = { discovered, matched: matchDesign(discovered, installation.expected), design: installation.expected, attachment: 'p0' };
  return blackWidowForwarding(known, configureBlackWidow(known).image);
}

function uniformLoad(name: string, make: () => Promise<Forwarding>, how: 'quick count' | 'walk through decide', runs: number): Benchmark {
  let forwarding: Forwarding | undefined;
  return {
    name: `analysis: channel load of uniform traffic, ${name} (${how})`,
    parameters: { fabric: name, pattern: 'uniform-random', planes: 1, counted: how },
    isolated: true,
    warmup: how === 'quick count' ? 1 : 0,
    runs,
    setup: async () => {
      const made = await make();
      forwarding = how === 'quick count' ? made : { ...made, quickLoad: undefined };
    },
    run: async () => {
      const f = forwarding!;
      const flows = patternFlows(
        { kind: 'uniform-random' },
        f.endpoints.map((e) => e.number),
        { endpointsPerRouter: f.endpointsPerRouter ?? 32, torus: f.torus },
        7,
        1,
      );
      collectGarbage();
      const cpu = process.cpuUsage();
      const result = await timed(() => channelLoad(f, flows, { planes: [f.planes[0]], vc: f.vcs[0] }));
      const used = process.cpuUsage(cpu);
      return {
        ms: result.ms,
        cpuMs: (used.user + used.system) / 1000,
        flows: flows.length,
        usPerFlow: (result.ms * 1000) / flows.length,
        maximum: result.value.maximum,
      };
    },
  };
}

export const benchmarks: Benchmark[] = [
  uniformLoad('BlueGene/L midplane 8×8×8', bglMidplane, 'quick count', 5),
  uniformLoad('BlueGene/L midplane 8×8×8', bglMidplane, 'walk through decide', 1),
  uniformLoad('Anton 2 8×8×8', anton2Cube, 'quick count', 5),
  uniformLoad('Anton 2 8×8×8', anton2Cube, 'walk through decide', 1),
  uniformLoad('BlackWidow bw-r1.5-288', blackWidow288, 'walk through decide', 5),
];
