/**
 * A known-good configuration for BlackWidow R1 and R1.5 fabrics, written from the ground-truth
 * cabling. It exists for the emulator's own tests (paper 000 §5 by hand); the control plane
 * computes configurations from discovery instead and never uses this.
 */
import { defaultCableLengths, generateBlackWidowDesign } from '@weft/fabric-model';
import { EmulatedFabric } from '../emulated-fabric';
import { YarcFabricSim } from './yarc-fabric-sim';
import { PORTS, PORT_DOWNLINK, PORT_SIDELINK } from './yarc-constants';

export function configureR15ByHand(sim: YarcFabricSim): void {
  const fabric = sim.fabric;
  const chips = fabric.design.chips;
  for (let r = 0; r < sim.routerChip.length; r++) {
    const chip = sim.routerChip[r];
    const name = chips[chip].name; // s{slice}.r1.{subtree}
    const subtree = Number(name.split('.')[2]);
    const sidelinks = new Map<number, number[]>();
    const logicalToPhysical = new Array<number>(32).fill(-1);
    for (let p = 0; p < PORTS; p++) {
      const g = fabric.portBase[chip] + p;
      const peer = fabric.peer[g];
      if (peer < 0) continue;
      const processor = sim.globalProcessor[peer];
      if (processor >= 0) {
        logicalToPhysical[processor & 31] = p;
        sim.regs.portDirection[r * PORTS + p] = PORT_DOWNLINK;
      } else {
        const peerTile = sim.globalRouterPort[peer];
        const peerChip = sim.routerChip[(peerTile / PORTS) | 0];
        const peerSubtree = Number(chips[peerChip].name.split('.')[2]);
        sidelinks.set(peerSubtree, [...(sidelinks.get(peerSubtree) ?? []), p]);
        sim.regs.portDirection[r * PORTS + p] = PORT_SIDELINK;
      }
    }
    for (let t = 0; t < PORTS; t++) {
      const i = r * PORTS + t;
      sim.regs.rootLocation[i] = subtree * 32;
      sim.regs.rootMask[i] = 0x1f;
      sim.regs.downShift[i] = 0;
      sim.regs.downMask[i] = 0x1f;
      logicalToPhysical.forEach((physical, logical) => {
        if (physical >= 0) sim.regs.setPortMap(r, t, logical, physical);
      });
      let entry = 0;
      for (const [peerSubtree, ports] of [...sidelinks.entries()].sort((a, b) => a[0] - b[0])) {
        sim.regs.setTableEntry(r, t, entry++, peerSubtree * 32, 0x1f, ports);
      }
    }
  }
}

/** An R1 (≤32 processors) or R1.5 fabric, emulated and configured by hand: the emulator tests' bench. */
export function handConfiguredR15(processors: number, options: { slices?: number; portSeed?: number; seed?: number } = {}): YarcFabricSim {
  const design = generateBlackWidowDesign({
    network: processors <= 32 ? 'R1' : 'R1.5',
    processors,
    slices: options.slices ?? 1,
    r1Uplinks: 32,
    portSeed: options.portSeed ?? 0,
    cableLengths: defaultCableLengths(processors),
  });
  const sim = new YarcFabricSim(new EmulatedFabric(design), options.seed ?? 1);
  configureR15ByHand(sim);
  return sim;
}
