/**
 * Physical designs of the Cray BlackWidow network, one network slice after another
 * (paper 000 §2.2, Figure 2): R1 (32 processors), R1.5 (up to 9 R1 subtrees by sidelinks, 288),
 * R2 (up to 32 R1 subtrees under radix-32 R2 routers, 1024), R2.5 (up to 9 512-processor R2
 * subtrees by sidelinks, 4.5K), R3 (up to 32 R2 subtrees under R3 routers, 16K) and R3.5 (R3
 * subtrees of 8K joined by sidelinks, 32K; diameter 7).
 *
 * Every R2 and R3 YARC is split into two radix-32 virtual routers (§7.4): ports 0–31 form virtual
 * router 0 and ports 32–63 virtual router 1, so each virtual router owns whole octants (§4.4: the
 * eight tiles of an octant share one SerDes rate). A top-rank virtual router uses all 32 ports
 * down; any other uses 16 down and 16 up (or side). An R1 YARC is whole: 32 downlinks to its
 * processors and 32 uplinks or sidelinks (§2.2).
 */
import * as yarc from '../chips/yarc';
import { CableClass, CableSpec, ChipSpec, FabricDesign, PortRole, rateForLength } from '../fabric-design';
import { mulberry32, shuffleRange } from '../random';
import { InstallationFileError } from '../installation/installation-error';
import { JsonChecker } from '../installation/json-checker';

export type BlackWidowNetwork = 'R1' | 'R1.5' | 'R2' | 'R2.5' | 'R3' | 'R3.5';
export const BLACKWIDOW_NETWORKS: readonly BlackWidowNetwork[] = ['R1', 'R1.5', 'R2', 'R2.5', 'R3', 'R3.5'];

/** Largest machine each network class builds (paper 000 §2.2). */
export const BLACKWIDOW_MAX_PROCESSORS: Readonly<Record<BlackWidowNetwork, number>> = {
  R1: 32,
  'R1.5': 288,
  R2: 1024,
  'R2.5': 4608,
  R3: 16384,
  'R3.5': 32768,
};

/** Smallest machine that needs the class (one more subtree than the class below can hold). */
export const BLACKWIDOW_MIN_PROCESSORS: Readonly<Record<BlackWidowNetwork, number>> = {
  R1: 1,
  'R1.5': 33,
  R2: 33,
  'R2.5': 513,
  R3: 513,
  'R3.5': 8193,
};

// The chips' figures, from their datasheet.
export const YARC_PORTS = yarc.PORTS;
export const YARC_LANES = yarc.LANES;
export const PROCESSOR_INJECTION_PORTS = yarc.PROCESSOR_PORTS;
export const R1_SUBTREE = 32;
export const R2_SUBTREE = 512;
export const R3_SUBTREE = 8192;

export interface BlackWidowCableLengths {
  injection: number;
  r1r2: number;
  r2r3: number;
  side: number;
}

export interface BlackWidowDesignParams {
  network: BlackWidowNetwork;
  processors: number;
  /** Independent network slices, one per processor injection port (1–4, paper 000 §2.2). */
  slices: number;
  /** R1 uplink cables connected per R1 router (a bandwidth taper below 32, §2.2). */
  r1Uplinks: number;
  /** Seed of the physical-port shuffle within each octant; 0 keeps ports in design order. */
  portSeed: number;
  cableLengths: BlackWidowCableLengths;
}

/** Default cable lengths: midplane injection links, in-cabinet sidelinks, cabinet-to-cabinet
 * uplinks; machines over 4K processors need R2–R3 cables longer than 6 m (§7.2). */
export function defaultCableLengths(processors: number): BlackWidowCableLengths {
  return { injection: 0.5, r1r2: 4, r2r3: processors > 4096 ? 10 : 5, side: processors > 4096 ? 10 : 3 };
}

interface RouterBuild {
  chip: ChipSpec;
  roles: PortRole[];
  vr: number[];
  perm: number[];
}

export function r1Name(slice: number, subtree: number): string {
  return `s${slice}.r1.${subtree}`;
}
export function r2Name(slice: number, group: number, index: number): string {
  return `s${slice}.r2.${group}.${index}`;
}
export function r3Name(slice: number, group: number, index: number): string {
  return `s${slice}.r3.${group}.${index}`;
}
export function processorName(processor: number): string {
  return `p${processor}`;
}

/** Builds the design; parameters the installation checks would refuse are refused here too. */
export function generateBlackWidowDesign(params: BlackWidowDesignParams): FabricDesign {
  const checker = new JsonChecker();
  if (!checkBlackWidowDesign(params, checker) || checker.issues.length > 0) throw new InstallationFileError('design', checker.issues);
  const { network, processors, slices, r1Uplinks, portSeed, cableLengths } = params;
  const random = mulberry32(portSeed);
  const chips: ChipSpec[] = [];
  const cables: CableSpec[] = [];
  const routers = new Map<string, RouterBuild>();

  const endpointRoles: PortRole[] = [];
  for (let s = 0; s < PROCESSOR_INJECTION_PORTS; s++) endpointRoles.push(s < slices ? 'injection' : 'unused');
  for (let p = 0; p < processors; p++) {
    chips.push({
      name: processorName(p),
      kind: 'endpoint',
      model: 'BW-processor',
      slice: -1,
      rank: 0,
      portCount: PROCESSOR_INJECTION_PORTS,
      processor: p,
      portRoles: endpointRoles,
      virtualRouterOf: [0, 0, 0, 0],
    });
  }

  const addRouter = (name: string, slice: number, rank: number, split: boolean): RouterBuild => {
    const perm: number[] = [];
    for (let i = 0; i < YARC_PORTS; i++) perm.push(i);
    if (portSeed !== 0) for (let o = 0; o < YARC_PORTS; o += 8) shuffleRange(perm, o, o + 8, random);
    const roles: PortRole[] = new Array<PortRole>(YARC_PORTS).fill('unused');
    const vr: number[] = [];
    for (let i = 0; i < YARC_PORTS; i++) vr.push(split ? i >> 5 : 0);
    const chip: ChipSpec = {
      name,
      kind: 'router',
      model: 'YARC',
      slice,
      rank,
      portCount: YARC_PORTS,
      processor: -1,
      portRoles: roles,
      virtualRouterOf: vr,
    };
    const build = { chip, roles, vr, perm };
    routers.set(name, build);
    chips.push(chip);
    return build;
  };

  const cable = (aChip: string, aPort: number, bChip: string, bPort: number, cableClass: CableClass, lengthMeters: number): void => {
    const a = routers.get(aChip);
    const b = routers.get(bChip);
    const pa = a ? a.perm[aPort] : aPort;
    const pb = b ? b.perm[bPort] : bPort;
    if (a) a.roles[pa] = cableClass === 'injection' ? 'down' : cableClass === 'side' ? 'side' : 'up';
    if (b) b.roles[pb] = cableClass === 'side' ? 'side' : 'down';
    cables.push({
      a: { chip: aChip, port: pa },
      b: { chip: bChip, port: pb },
      cableClass,
      lengthMeters,
      rateGbps: rateForLength(lengthMeters),
      lanes: YARC_LANES,
    });
  };

  const r1Count = Math.ceil(processors / R1_SUBTREE);
  const r2Groups = Math.ceil(processors / R2_SUBTREE);
  const r3Groups = Math.ceil(processors / R3_SUBTREE);

  for (let s = 0; s < slices; s++) {
    for (let t = 0; t < r1Count; t++) addRouter(r1Name(s, t), s, 1, false);
    // Injection links: processor p's port s lands on downlink (p mod 32) of its R1 in slice s.
    for (let p = 0; p < processors; p++) {
      const r1 = r1Name(s, p >> 5);
      const port = routers.get(r1)!.perm[p & 31];
      routers.get(r1)!.roles[port] = 'down';
      cables.push({
        a: { chip: processorName(p), port: s },
        b: { chip: r1, port },
        cableClass: 'injection',
        lengthMeters: cableLengths.injection,
        rateGbps: rateForLength(cableLengths.injection),
        lanes: YARC_LANES,
      });
    }

    if (network === 'R1.5') {
      // Every pair of R1 subtrees is joined by an equal share of the 32 sidelinks (Figure 2a, 2b).
      const perPeer = Math.floor(32 / (r1Count - 1));
      for (let t = 0; t < r1Count; t++) {
        for (let u = t + 1; u < r1Count; u++) {
          for (let k = 0; k < perPeer; k++) {
            cable(r1Name(s, t), 32 + (u - 1) * perPeer + k, r1Name(s, u), 32 + t * perPeer + k, 'side', cableLengths.side);
          }
        }
      }
    }

    if (network === 'R2') {
      // R2 routers are the top rank: radix-32 virtual routers with all ports down, one per R1
      // uplink; R1 subtree t reaches virtual router j through its uplink j, landing on port t.
      const vrs = r1Uplinks;
      for (let i = 0; i < Math.ceil(vrs / 2); i++) addRouter(r2Name(s, 0, i), s, 2, true);
      for (let t = 0; t < r1Count; t++) {
        for (let j = 0; j < vrs; j++) {
          cable(r1Name(s, t), 32 + j, r2Name(s, 0, j >> 1), 32 * (j & 1) + t, 'up', cableLengths.r1r2);
        }
      }
    }

    if (network === 'R2.5' || network === 'R3' || network === 'R3.5') {
      // 512-processor R2 subtrees: 16 R1s under up to 32 virtual routers of 16 down + 16 up/side.
      for (let g = 0; g < r2Groups; g++) {
        for (let i = 0; i < Math.ceil(r1Uplinks / 2); i++) addRouter(r2Name(s, g, i), s, 2, true);
      }
      for (let t = 0; t < r1Count; t++) {
        const g = t >> 4;
        for (let j = 0; j < r1Uplinks; j++) {
          cable(r1Name(s, t), 32 + j, r2Name(s, g, j >> 1), 32 * (j & 1) + (t & 15), 'up', cableLengths.r1r2);
        }
      }
    }

    if (network === 'R2.5') {
      const perPeer = Math.floor(16 / (r2Groups - 1));
      for (let g = 0; g < r2Groups; g++) {
        for (let h = g + 1; h < r2Groups; h++) {
          for (let j = 0; j < r1Uplinks; j++) {
            for (let k = 0; k < perPeer; k++) {
              const base = 32 * (j & 1) + 16;
              cable(r2Name(s, g, j >> 1), base + (h - 1) * perPeer + k, r2Name(s, h, j >> 1), base + g * perPeer + k, 'side', cableLengths.side);
            }
          }
        }
      }
    }

    if (network === 'R3' || network === 'R3.5') {
      // R3 virtual router q = 16j + u takes uplink u of every group's R2 virtual router j.
      const r3Vrs = r1Uplinks * 16;
      const tops = network === 'R3' ? 1 : r3Groups;
      for (let h = 0; h < tops; h++) {
        for (let i = 0; i < r3Vrs / 2; i++) addRouter(r3Name(s, h, i), s, 3, true);
      }
      for (let g = 0; g < r2Groups; g++) {
        const h = network === 'R3' ? 0 : g >> 4;
        const downPort = network === 'R3' ? g : g & 15;
        for (let j = 0; j < r1Uplinks; j++) {
          for (let u = 0; u < 16; u++) {
            const q = 16 * j + u;
            cable(r2Name(s, g, j >> 1), 32 * (j & 1) + 16 + u, r3Name(s, h, q >> 1), 32 * (q & 1) + downPort, 'up', cableLengths.r2r3);
          }
        }
      }
      if (network === 'R3.5') {
        const perPeer = Math.floor(16 / (r3Groups - 1));
        for (let h = 0; h < r3Groups; h++) {
          for (let h2 = h + 1; h2 < r3Groups; h2++) {
            for (let q = 0; q < r3Vrs; q++) {
              const base = 32 * (q & 1) + 16;
              for (let k = 0; k < perPeer; k++) {
                cable(r3Name(s, h, q >> 1), base + (h2 - 1) * perPeer + k, r3Name(s, h2, q >> 1), base + h * perPeer + k, 'side', cableLengths.side);
              }
            }
          }
        }
      }
    }
  }

  return {
    family: 'blackwidow',
    chips,
    cables,
    summary: { network, processors, slices, r1Uplinks, routers: routers.size, cables: cables.length },
  };
}

/**
 * Checks a design's parameters as an installation file gives them (`$.design`), naming each
 * problem by its JSON path; fills in the defaults. The generator runs it too, so that no caller can
 * build a design the installation checks would refuse (a ten-subtree R1.5 has more sidelink peers
 * than a routing table has entries).
 */
export function checkBlackWidowDesign(value: unknown, c: JsonChecker): BlackWidowDesignParams | undefined {
  const d = c.object(value, '$.design', ['network', 'processors', 'slices', 'r1Uplinks', 'portSeed', 'cableLengths']);
  if (!d) return undefined;
  const network = c.oneOf<BlackWidowNetwork>(d.network, '$.design.network', BLACKWIDOW_NETWORKS);
  let processors: number | undefined;
  if (network) {
    processors = c.integer(d.processors, '$.design.processors', 1, BLACKWIDOW_MAX_PROCESSORS[network]);
    if (processors !== undefined && processors < BLACKWIDOW_MIN_PROCESSORS[network]) {
      processors = c.fail(
        '$.design.processors',
        `${network} needs at least ${BLACKWIDOW_MIN_PROCESSORS[network]} processors (fewer fit a smaller network class), got ${processors}`,
      );
    }
  }
  const slices = d.slices === undefined ? 4 : c.integer(d.slices, '$.design.slices', 1, 4);
  const r1Uplinks = d.r1Uplinks === undefined ? 32 : c.integer(d.r1Uplinks, '$.design.r1Uplinks', 1, 32);
  if (r1Uplinks !== undefined && r1Uplinks !== 32 && network !== undefined && network.startsWith('R1')) {
    c.fail('$.design.r1Uplinks', `a taper applies to R1-to-R2 cables; ${network} has none`);
  }
  const portSeed = d.portSeed === undefined ? 0 : c.integer(d.portSeed, '$.design.portSeed', 0, 0xffffffff);
  let cableLengths = processors !== undefined ? defaultCableLengths(processors) : undefined;
  if (d.cableLengths !== undefined) {
    const l = c.object(d.cableLengths, '$.design.cableLengths', ['injection', 'r1r2', 'r2r3', 'side']);
    if (l && cableLengths) {
      const next = { ...cableLengths };
      for (const key of ['injection', 'r1r2', 'r2r3', 'side'] as const) {
        if (l[key] !== undefined) next[key] = c.number(l[key], `$.design.cableLengths.${key}`, 0.1, 100) ?? next[key];
      }
      cableLengths = next;
    }
  }
  if (!network || processors === undefined || slices === undefined || r1Uplinks === undefined || portSeed === undefined || !cableLengths) {
    return undefined;
  }
  return { network, processors, slices, r1Uplinks, portSeed, cableLengths };
}
