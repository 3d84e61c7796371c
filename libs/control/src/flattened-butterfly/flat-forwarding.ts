/**
 * The flattened butterfly's reading of a configuration image for the route analyses
 * (analysis/forwarding.ts): an endpoint is a terminal (router r's terminal i is endpoint r·k + i,
 * named `r….ti`), injected at its router's port i; each router sends a packet on as its registers
 * say — dimension order, MIN AD's productive channels (each an equal share), VAL's intermediates
 * (each live one an equal share, the packet carrying its intermediate and phase as its state), a
 * doubled channel's two ports (half each), a masked hop's detour (the state marks it, the VC index
 * rising). The adaptive algorithms' choice depends on queues no image holds: UGAL, UGAL-S and CLOS
 * AD are read as they route an idle network — minimally — and say so.
 */
import * as model from '@weft/fabric-model';
import type { ChipPort, Forwarding, ForwardingChoice, ForwardingDecision, PacketHeader } from '../analysis/forwarding';
import type { KnownFabric } from '../discovery/known-fabric';
import { indexKnownFabric } from '../discovery/known-fabric';
import type { FlatImage, FlatRouterImage } from './flat-configuration';

/** The packet's state: phase, intermediate (router number, -1 none) and whether it detoured in this phase. */
const encode = (phase: number, inter: number, detoured: boolean) => `${phase}.${inter}.${detoured ? 1 : 0}`;
function decode(word: string | undefined): { phase: number; inter: number; detoured: boolean } {
  const [phase, inter, detoured] = (word ?? '1.-1.0').split('.').map(Number);
  return { phase, inter, detoured: detoured === 1 };
}

export function flatForwarding(known: KnownFabric, image: FlatImage): Forwarding {
  const grid = image.grid;
  const k = grid.k;
  const dims = grid.sizes.length;
  const index = indexKnownFabric(known);
  const routers = new Map<string, FlatRouterImage>(image.routers.map((r) => [r.name, r]));
  const number = (coordinates: readonly number[]) => model.flatRouterIndex(grid, coordinates);
  const byNumber = new Map(image.routers.map((r) => [number(r.coordinates), r]));
  const digits = (n: number) => model.flatCoordinates(grid, n);
  const slotOf = (d: number, m: number) => model.flatMapSlot(grid, d + 1, m);
  const excluded = new Set(image.routers[0]?.excludedIntermediates ?? []);
  const intermediates = image.routers.map((r) => number(r.coordinates)).filter((b) => !excluded.has(b));
  const routing = image.routing;
  const mode = routing === 'min' || routing === 'min-ad' ? routing : routing === 'val' ? 'val' : 'minimal';

  const peer = (end: ChipPort): ChipPort | null => {
    if (!routers.has(end.chip)) return null;
    if (end.port < k) return end;
    const far = index.peer.get(`${end.chip}:${end.port}`);
    return far && routers.has(far.chip) ? far : null;
  };

  /**
   * The ports on towards coordinate m of dimension d: the channel, both of a doubled one (half each),
   * or the detour's first hop where the channel is masked; and whether it is a detour.
   */
  const ways = (r: FlatRouterImage, d: number, m: number, detoured: boolean): { ports: number[]; detour: boolean } | null => {
    const slot = slotOf(d, m);
    const open = [r.portMap[slot], r.redundantMap[slot]].filter((p) => p >= 0 && !r.portMask[p]);
    if (open.length > 0) return { ports: open, detour: false };
    const via = r.detourVia[slot];
    if (detoured || via < 0) return null;
    const first = [r.portMap[slotOf(d, via)], r.redundantMap[slotOf(d, via)]].filter((p) => p >= 0 && !r.portMask[p]);
    return first.length > 0 ? { ports: first, detour: true } : null;
  };
  const lowestDiffering = (r: FlatRouterImage, target: readonly number[]) => r.coordinates.findIndex((c, d) => c !== target[d]);
  const remaining = (r: FlatRouterImage, target: readonly number[]) => r.coordinates.filter((c, d) => c !== target[d]).length;

  return {
    family: 'flattened-butterfly',
    planes: [0],
    vcs: [0],
    endpointsPerRouter: k,
    endpoints: image.routers
      .flatMap((r) => Array.from({ length: k }, (_, i) => ({ number: number(r.coordinates) * k + i, name: `${r.name}.t${i}` })))
      .sort((a, b) => a.number - b.number),
    channels: image.routers.flatMap((r) =>
      r.portMask
        .map((_, port) => port)
        .filter((port) => port >= k && !r.portMask[port] && peer({ chip: r.name, port }))
        .map((port) => ({ chip: r.name, port })),
    ),
    injection: (endpoint, plane) => {
      const r = byNumber.get(Math.floor(endpoint / k));
      return r && plane === 0 ? { chip: r.name, port: endpoint % k } : null;
    },
    peer,
    endpointOf: () => null,
    decide: (at: ChipPort, header: PacketHeader): ForwardingDecision => {
      const r = routers.get(at.chip);
      if (!r) return { kind: 'drop', reason: `${at.chip} is not a live router of this configuration` };
      const target = digits(Math.floor(header.destination / k));
      const injected = at.port < k && header.state === undefined;
      let state = injected ? { phase: mode === 'val' ? 0 : 1, inter: -1, detoured: false } : decode(header.state);
      // At the destination's router, whatever the phase: the routers eject first (flat-sim.ts).
      if (remaining(r, target) === 0) return { kind: 'deliver', how: `to its terminal ${header.destination % k} (port ${header.destination % k})` };
      const vcOf = (ideal: number) => r.vcMap[Math.min(ideal, r.vcMap.length - 1)];
      const choices: ForwardingChoice[] = [];
      let how: string;
      let vc = 0;
      const go = (d: number, m: number, share: number, next: (detour: boolean) => string, ideal: (detour: boolean) => number) => {
        const w = ways(r, d, m, state.detoured);
        if (!w) return false;
        for (const port of w.ports) choices.push({ port, share: share / w.ports.length, state: next(w.detour) });
        vc = vcOf(ideal(w.detour));
        return true;
      };
      if (mode === 'val' && state.phase === 0) {
        const inters = injected ? intermediates : [state.inter];
        for (const b of inters) {
          const bt = digits(b);
          const d = lowestDiffering(r, bt);
          if (d < 0) {
            // At (or from) its intermediate: phase 1 from here.
            const dd = lowestDiffering(r, target);
            if (dd < 0) continue;
            go(
              dd,
              target[dd],
              1 / inters.length,
              (detour) => encode(1, -1, detour),
              (detour) => (detour ? 3 : 1),
            );
            continue;
          }
          go(
            d,
            bt[d],
            1 / inters.length,
            (detour) => encode(0, b, state.detoured || detour),
            (detour) => (detour || state.detoured ? 2 : 0),
          );
        }
        how = injected ? `VAL: through each of ${inters.length} intermediates` : `VAL phase 0 towards ${byNumber.get(state.inter)?.name ?? state.inter}`;
      } else if (mode === 'min-ad') {
        const productive = r.coordinates.map((c, d) => d).filter((d) => r.coordinates[d] !== target[d]);
        const left = productive.length;
        for (const d of productive)
          go(
            d,
            target[d],
            1 / left,
            (detour) => encode(1, -1, state.detoured || detour),
            () => dims - left + (state.detoured ? 1 : 0),
          );
        how = `MIN AD: any of its ${left} productive channels`;
      } else {
        const d = lowestDiffering(r, target);
        const left = remaining(r, target);
        const twoPhase = mode !== 'min';
        go(
          d,
          target[d],
          1,
          (detour) => encode(1, -1, state.detoured || detour),
          () => (twoPhase ? (state.detoured ? 3 : 1) : dims - left + (state.detoured ? 1 : 0)),
        );
        how = mode === 'min' ? `dimension order: dimension ${d + 1}` : `${routing} as on an idle network: minimal, dimension ${d + 1}`;
      }
      if (choices.length === 0) return { kind: 'drop', reason: `${at.chip} has no open way on towards ${header.destination} (masked, no detour left)` };
      state = decode(choices[0].state);
      return {
        kind: 'forward',
        choices,
        chosen: choices[0].port,
        vc,
        how: `${how}${state.detoured && !header.state?.endsWith('.1') ? ' (a detour round a masked channel)' : ''}`,
      };
    },
  };
}
