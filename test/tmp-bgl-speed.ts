import { generateBglDesign, mulberry32 } from '@weft/fabric-model';
import { EmulatedFabric } from '../libs/emulator/src/emulated-fabric';
import { BglTorusSim } from '../libs/emulator/src/bgl/bgl-torus-sim';
const shape = (process.argv[2] ?? '32,32,32').split(',').map(Number) as [number, number, number];
let t0 = performance.now();
const fabric = new EmulatedFabric(generateBglDesign({ shape, midplaneLinkCycles: 3, cableLinkCycles: 10 }));
const sim = new BglTorusSim(fabric, 1, {});
sim.programMinimalRouting();
console.log('build', (performance.now() - t0).toFixed(0), 'ms');
const random = mulberry32(5);
const n = sim.nodes;
// Fully loaded: every node offers a 256-byte packet every 256 cycles to a uniform destination.
const offer = (cycles: number) => sim.run(cycles, () => {
  for (let i = 0; i < n; i++) {
    if (random() >= 1 / 256) continue;
    let t = Math.floor(random() * (n - 1)); if (t >= i) t++;
    sim.send(i, t, 8);
  }
});
offer(2000);
t0 = performance.now();
const c0 = sim.cycle, b0 = sim.bytesMoved;
offer(4000);
const ms = performance.now() - t0;
const emulatedUs = (sim.cycle - c0) * sim.nsPerCycle / 1000;
console.log(shape.join('x'), 'cycles', sim.cycle - c0, 'wall', ms.toFixed(0), 'ms →', (emulatedUs / (ms / 1000)).toFixed(3), 'emulated µs per wall s; link utilisation', ((sim.bytesMoved - b0) / ((sim.cycle - c0) * 6 * n)).toFixed(3), 'inflight', sim.inFlight);
