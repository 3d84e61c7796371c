import { BglMaintenanceController, BglTorusSim, EmulatedFabric } from '@weft/emulator';
import { loadInstallationFile } from '@weft/fabric-model';
import { driveEngine } from '../libs/control/src/engine/driver';
import { FaultSet } from '../libs/control/src/faults/fault-set';
import { discoverBgl } from '../libs/control/src/bgl/bgl-discovery';
import { BglRoutingEngine, DEFAULT_BGL_POLICY } from '../libs/control/src/bgl/bgl-routing-engine';
async function main() {
  const installation = loadInstallationFile('fixtures/bgl/bgl-midplane-512.json');
  const sim = new BglTorusSim(new EmulatedFabric(installation.physical), 1);
  const known = await discoverBgl(new BglMaintenanceController(sim), installation.expected);
  const engine = new BglRoutingEngine(known, { ...DEFAULT_BGL_POLICY, pairwiseProofNodes: Number(process.env.PW ?? 512) });
  let t = performance.now();
  driveEngine(engine, FaultSet.NONE);
  console.log('first', performance.now() - t);
  for (let i = 0; i < 3; i++) {
    const faults = FaultSet.of([{ kind: 'router', chip: 'x3.y4.z5', port: null }], () => 6);
    t = performance.now();
    const o = driveEngine(engine, faults);
    console.log('one dead', performance.now() - t, o.computed.incremental, o.fellBack);
    t = performance.now();
    driveEngine(engine, FaultSet.NONE);
    console.log('none again', performance.now() - t);
  }
}
main();
