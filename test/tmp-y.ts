import { loadInstallationFile } from '@weft/fabric-model';
import { EmulatedFabric } from '../libs/emulator/src/emulated-fabric';
import { BglHostedEngine } from '../libs/emulator/src/bgl/bgl-hosted-engine';
const inst = loadInstallationFile('fixtures/bgl/bgl-midplane-512.json');
for (const load of [0.02, 0.001]) {
  const e = new BglHostedEngine(new EmulatedFabric(inst.physical), 1);
  e.sim.programMinimalRouting();
  const shape = { endpoints: 512, slices: 1, endpointsPerRouter: 1, torus: [8, 8, 8], packetPhits: { min: 32, max: 256, multipleOf: 32 } };
  const run = e.startTraffic({ mode: 'background', pattern: { kind: 'uniform-random' }, packetPhits: 128, slices: [0], seed: 1, load, interval: 100000 }, shape);
  const t = Date.now();
  for (let i = 0; i < 500; i++) run.advance(2000);
  console.log(load, '1M cycles', Date.now() - t, 'ms', e.sim.injected, 'packets');
}
