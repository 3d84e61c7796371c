/**
 * BlackWidow's reading of its configuration image for the route analyses (analysis/forwarding.ts):
 * what a YARC tile does with a packet, from the registers the image programs, as the chip does it
 * (paper 000 §5.1, §5.2, §7.7, §7.8.2):
 *
 * - root detect: a destination in the tile's subtree goes down, on the port the down route and the
 *   logical→physical port map give; one that is not, having arrived going down, is an error (§7.7);
 * - otherwise the highest-index table entry whose location and mask match gives the allowed ports,
 *   and the deterministic hash of input port, destination and (h bit) the selected hash bits, modulo
 *   their number, picks one (§5.1, §7.8.2; the fold is the datasheet's yarcHash).
 *
 * A packet keeps its VC (requests on 0, responses on 1). Shares are exact for packets whose 15
 * optional hash bits are uniformly random (the traffic runs draw them so): the selected bits are
 * enumerated. Across hops the shares are treated as independent; successive ranks hash on
 * different bits (§7.8.2), so for the power-of-two port counts the engine programs they are.
 */
import * as yarc from '@weft/fabric-model/chips/yarc';
import { indexKnownFabric, KnownFabric } from '../discovery/known-fabric';
import type { ChipPort, Forwarding, ForwardingChoice, ForwardingDecision, PacketHeader } from '../analysis/forwarding';
import type { ConfigurationImage, RouterImage, VirtualRouterConfig } from './blackwidow-engine';

interface Tile {
  readonly router: RouterImage;
  readonly vr: VirtualRouterConfig;
}

export function blackWidowForwarding(known: KnownFabric, image: ConfigurationImage): Forwarding {
  const index = indexKnownFabric(known);
  const tiles = new Map<string, Map<number, Tile>>();
  for (const router of image.routers) {
    const byPort = new Map<number, Tile>();
    for (const vr of router.virtualRouters) for (const t of vr.tiles) byPort.set(t, { router, vr });
    tiles.set(router.name, byPort);
  }
  const endpointChip = new Map<number, string>();
  const endpointNumber = new Map<string, number>();
  for (const chip of known.design.chips) {
    if (chip.kind !== 'endpoint') continue;
    endpointChip.set(chip.processor, chip.name);
    endpointNumber.set(chip.name, chip.processor);
  }
  const found = new Set(known.matched.names.values());
  const planes = [...new Set(known.design.chips.filter((c) => c.kind === 'router').map((c) => c.slice))].sort((a, b) => a - b);
  /** The hash shares of `count` ports for a tile, input port and destination, by enumeration of
   * the selected bits (remembered: they depend only on the unhashed fold, the count and how many
   * bits the tile selects). */
  const remembered = new Map<number, number[]>();
  const shares = (inPort: number, destination: number, select: number, count: number): number[] => {
    let selectable = 0;
    for (let b = 0; b < yarc.HASH_BITS; b++) if (select & (1 << b)) selectable++;
    const bits = Math.min(selectable, yarc.SELECTED_HASH_BITS);
    const fold = yarc.yarcHash(inPort, destination, 0);
    const key = (fold * 65 + count) * 9 + bits;
    let out = remembered.get(key);
    if (!out) {
      out = new Array<number>(count).fill(0);
      const values = 1 << bits;
      for (let s = 0; s < values; s++) out[yarc.yarcHash(inPort, destination, s) % count] += 1 / values;
      remembered.set(key, out);
    }
    return out;
  };
  return {
    family: 'blackwidow',
    planes,
    vcs: [yarc.VC_REQUEST, yarc.VC_RESPONSE],
    channels: known.matched.cables.filter((c) => c.lanes > 0).flatMap((c) => [c.a, c.b]),
    endpoints: [...endpointChip]
      .filter(([, name]) => found.has(name))
      .map(([number, name]) => ({ number, name }))
      .sort((a, b) => a.number - b.number),
    injection: (endpoint, plane) => {
      const chip = endpointChip.get(endpoint);
      if (chip === undefined || plane < 0 || plane >= yarc.PROCESSOR_PORTS) return null;
      const end = { chip, port: plane };
      return index.peer.has(`${chip}:${plane}`) ? end : null;
    },
    peer: (end) => index.peer.get(`${end.chip}:${end.port}`) ?? null,
    endpointOf: (chip) => endpointNumber.get(chip) ?? null,
    decide: (at: ChipPort, header: PacketHeader): ForwardingDecision => {
      const tile = tiles.get(at.chip)?.get(at.port);
      if (!tile) return { kind: 'drop', reason: `${at.chip} is not configured for packets arriving on port ${at.port}` };
      const { router, vr } = tile;
      const destination = header.destination & yarc.LOCATION_MASK;
      const direction = router.portDirection;
      if (yarc.locationMatches(destination, vr.rootDetect[0], vr.rootDetect[1])) {
        const logical = (destination >>> vr.downRoute[0]) & vr.downRoute[1];
        const port = vr.portMap[logical & (yarc.PORTS - 1)];
        if (port === undefined || port < 0 || direction[port] !== yarc.PORT_DOWNLINK)
          return { kind: 'drop', reason: `${at.chip}: the down route leads to logical port ${logical}, which maps to no downlink` };
        return { kind: 'forward', choices: [{ port, share: 1 }], chosen: port, vc: header.vc, how: `down: root detect matched, logical port ${logical}` };
      }
      if (direction[at.port] === yarc.PORT_UPLINK || direction[at.port] === yarc.PORT_SIDELINK)
        return { kind: 'drop', reason: `${at.chip}: arrived going down but the destination is outside its subtree (§7.7)` };
      for (let e = yarc.TABLE_ENTRIES - 1; e >= 0; e--) {
        const entry = vr.table[e];
        if (!entry || !yarc.locationMatches(destination, entry.location, entry.mask)) continue;
        const ports = [...entry.ports].sort((a, b) => a - b);
        if (ports.length === 0) return { kind: 'drop', reason: `${at.chip}: table entry ${e} matches with no ports` };
        if (!yarc.isLegalModulus(ports.length)) return { kind: 'drop', reason: `${at.chip}: table entry ${e} has ${ports.length} ports, not a legal modulus` };
        const spread = shares(at.port, destination, vr.hashSelect, ports.length);
        const choices: ForwardingChoice[] = ports.map((port, i) => ({ port, share: spread[i] }));
        const selected = header.hashBits === null ? 0 : yarc.selectHashBits(header.hashBits, vr.hashSelect);
        const chosen = ports[yarc.yarcHash(at.port, destination, selected) % ports.length];
        return { kind: 'forward', choices, chosen, vc: header.vc, how: `up: table entry ${e}, ${ports.length} ports hashed` };
      }
      return { kind: 'drop', reason: `${at.chip}: no table entry matches destination ${destination}` };
    },
  };
}
