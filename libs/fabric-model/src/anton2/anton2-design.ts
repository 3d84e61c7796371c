/**
 * Physical designs of an Anton 2 machine (paper 004 §1, §2.2; spec §2.1): a three-dimensional torus
 * of ASICs, 4×4×1 up to 16×16×16, channel-sliced — two torus channels to each of a node's six
 * neighbours, one per slice, so twelve channel adapters as the ASIC's ports (anton2ChannelPort:
 * X0+, X1+, X0−, X1−, then Y, then Z). A channel is named by the direction packets leave the ASIC
 * on it (§2.2), so a node's X0+ is cabled to its + neighbour's X0−. A ring of one (the 4×4×1
 * backplane's Z) has no channels in that dimension.
 *
 * Packaging (§2.2, Fig. 2): one ASIC per nodecard, 16 nodecards a backplane in a 4×4×1 array;
 * channels between nodecards of one backplane are traces, every other channel a cable. Their
 * latency is not in the paper: design settings, 2 ns on a backplane and 10 ns on a cable by
 * default (some 0.4 m of trace and 2 m of cable at 5 ns/m), for the emulator to calibrate against
 * §4.3's latency fit. A node's place is its coordinates; its name says them (`x3.y0.z7`).
 */
import {
  ANTON2_BACKPLANE_SHAPE,
  ANTON2_CHANNEL_ADAPTERS,
  ANTON2_MAX_ASICS,
  ANTON2_MAX_RING,
  ANTON2_SERDES_GBPS,
  ANTON2_SERDES_PER_CHANNEL,
  ANTON2_SLICES,
  anton2ChannelPort,
} from '../chips/anton2-asic';
import type { CableSpec, FabricDesign } from '../fabric-design';
import { InstallationFileError } from '../installation/installation-error';
import { JsonChecker } from '../installation/json-checker';
import { Torus } from '../torus/torus';
import { checkTorusShape, torusChips, torusNodeName } from '../torus/torus-design';

export const ANTON2_ASIC_MODEL = 'Anton2-ASIC';

export interface Anton2DesignParams {
  /** Ring sizes k_X, k_Y, k_Z (1 to 16 each). */
  shape: [number, number, number];
  /** Emulated ns a channel takes on a backplane's traces (not in the paper: weft's setting, 2). */
  backplaneChannelNs: number;
  /** Emulated ns a cabled channel takes (not in the paper: weft's setting, 10). */
  cableChannelNs: number;
}

const BACKPLANE_METERS = 0.4;
const CABLE_METERS = 2;

/** An ASIC's name: its coordinates. */
export const anton2NodeName = torusNodeName;

/** Whether two nodes share a backplane (a 4×4×1 block of nodecards, Fig. 2). */
function sameBackplane(a: readonly number[], b: readonly number[]): boolean {
  return [0, 1, 2].every((d) => Math.floor(a[d] / ANTON2_BACKPLANE_SHAPE[d]) === Math.floor(b[d] / ANTON2_BACKPLANE_SHAPE[d]));
}

export function generateAnton2Design(params: Anton2DesignParams): FabricDesign {
  const checker = new JsonChecker();
  const checked = checkAnton2Design(params, checker);
  if (!checked) throw new InstallationFileError('design', checker.issues);
  const torus = new Torus(checked.shape);
  const chips = torusChips(torus, ANTON2_ASIC_MODEL, ANTON2_CHANNEL_ADAPTERS);
  const cables: CableSpec[] = [];
  let backplaneChannels = 0;
  for (let node = 0; node < torus.size; node++) {
    for (let d = 0; d < 3; d++) {
      if (torus.shape[d] === 1) continue;
      const far = torus.neighbour(node, 2 * d);
      const trace = sameBackplane(torus.coordinates(node), torus.coordinates(far));
      for (let s = 0; s < ANTON2_SLICES; s++) {
        if (trace) backplaneChannels++;
        cables.push({
          a: { chip: chips[node].name, port: anton2ChannelPort(d, false, s) },
          b: { chip: chips[far].name, port: anton2ChannelPort(d, true, s) },
          cableClass: 'torus',
          lengthMeters: trace ? BACKPLANE_METERS : CABLE_METERS,
          rateGbps: ANTON2_SERDES_GBPS,
          lanes: ANTON2_SERDES_PER_CHANNEL,
          latencyNs: trace ? checked.backplaneChannelNs : checked.cableChannelNs,
        });
      }
    }
  }
  const backplanes = [0, 1, 2].reduce((n, d) => n * Math.ceil(torus.shape[d] / ANTON2_BACKPLANE_SHAPE[d]), 1);
  return {
    family: 'anton2',
    chips,
    cables,
    summary: {
      network: 'torus',
      shape: checked.shape.join('×'),
      asics: torus.size,
      backplanes,
      cables: cables.length - backplaneChannels,
      backplaneChannels,
    },
  };
}

/** Checks a design's parameters as an installation file gives them (`$.design`), naming each problem by its JSON path; fills in the defaults. */
export function checkAnton2Design(value: unknown, c: JsonChecker): Anton2DesignParams | undefined {
  const d = c.object(value, '$.design', ['shape', 'backplaneChannelNs', 'cableChannelNs']);
  if (!d) return undefined;
  // §1: from one backplane (4×4×1) to 16×16×16.
  const shape = checkTorusShape(d.shape, c, {
    ring: [1, ANTON2_MAX_RING],
    nodes: [16, 'ASICs (one backplane, 4×4×1)', ANTON2_MAX_ASICS, 'ASICs (16×16×16)'],
  });
  const backplaneChannelNs = d.backplaneChannelNs === undefined ? 2 : c.number(d.backplaneChannelNs, '$.design.backplaneChannelNs', 0.1, 10_000);
  const cableChannelNs = d.cableChannelNs === undefined ? 10 : c.number(d.cableChannelNs, '$.design.cableChannelNs', 0.1, 10_000);
  if (!shape || backplaneChannelNs === undefined || cableChannelNs === undefined) return undefined;
  return { shape, backplaneChannelNs, cableChannelNs };
}

/**
 * An ASIC's control-network address: its backplane (a 4×4×1 block of nodecards, x fastest) and its
 * nodecard there (4·(x mod 4) + y mod 4). The paper does not say how the control network reaches a
 * nodecard; weft addresses it by its place in the packaging, as for BG/L.
 */
export function anton2ControlAddress(torus: Torus, node: number): [number, number] {
  const [bx, by] = ANTON2_BACKPLANE_SHAPE;
  const [x, y, z] = torus.coordinates(node);
  const across = Math.ceil(torus.kx / bx);
  const down = Math.ceil(torus.ky / by);
  return [Math.floor(x / bx) + across * (Math.floor(y / by) + down * z), (x % bx) * by + (y % by)];
}
