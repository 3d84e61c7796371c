/**
 * A family's reading of a configuration image: what each chip does with a packet, computed from the
 * register images the way the chips interpret them (issue 35, capability 4). Route trace, channel
 * load and the channel-dependency check are written against this interface only, so every family
 * gets them by supplying its reading: BlackWidow's is in blackwidow-forwarding.ts, BlueGene/L's in
 * bgl/bgl-forwarding.ts. Where a chip's decision depends on more than the header's destination
 * and VC — what the source chose for the packet, as a BG/L node's software does — the family
 * carries it with the packet as `state`, an opaque word of its own.
 */

/** A port of a chip; a channel is named by its sending end. */
export interface ChipPort {
  readonly chip: string;
  readonly port: number;
}

/** One way on from a chip, and the share of packets that take it (1 where routing does not spread). */
export interface ForwardingChoice {
  readonly port: number;
  readonly share: number;
  /** The packet's state as it leaves this way, where the family keeps one (see PacketHeader.state). */
  readonly state?: string;
}

/** What the header of a traced or counted packet says. */
export interface PacketHeader {
  /** The destination endpoint's number. */
  readonly destination: number;
  readonly vc: number;
  /** The header's optional hash bits where it carries them (BlackWidow's h bit set); null: none. */
  readonly hashBits: number | null;
  /** What the family carries with the packet beyond its header (absent at injection, and for families that keep none). */
  readonly state?: string;
}

export type ForwardingDecision =
  | {
      readonly kind: 'forward';
      /** Every port the registers allow, with the share of packets with random hash bits that take it. */
      readonly choices: readonly ForwardingChoice[];
      /** The port this header takes. */
      readonly chosen: number;
      /** The VC it leaves on. */
      readonly vc: number;
      /** How the registers decided, in the chip's terms. */
      readonly how: string;
    }
  | { readonly kind: 'drop'; readonly reason: string }
  /** It is received here: a chip that is also an endpoint (a torus node) takes it in. */
  | { readonly kind: 'deliver'; readonly how: string };

export interface Forwarding {
  /** The family, for reports. */
  readonly family: string;
  /** The independent networks a packet may be sent in (BlackWidow: the four slices). */
  readonly planes: readonly number[];
  /** The VCs (or traffic classes) packets travel on. */
  readonly vcs: readonly number[];
  /** Every endpoint that is configured to be reached, by number, with its chip's name. */
  readonly endpoints: readonly { readonly number: number; readonly name: string }[];
  /** Endpoints a router serves, where they are grouped so (the adversarial pattern uses it). */
  readonly endpointsPerRouter?: number;
  /** A torus's radices, x first, where every node of one is an endpoint (the torus patterns use them). */
  readonly torus?: readonly number[];
  /** Every live channel: each direction of each cable in use, by its sending end. */
  readonly channels: readonly ChipPort[];
  /** Where an endpoint sends into `plane`: its own port (null where it has no live link there). */
  injection(endpoint: number, plane: number): ChipPort | null;
  /** The far end of the live cable at `end`, or null. */
  peer(end: ChipPort): ChipPort | null;
  /** The endpoint number of a chip that is an endpoint and nothing else; null for a router (or a torus node, which decides). */
  endpointOf(chip: string): number | null;
  /** What a router does with a packet that arrived at `at` (its input port) with `header`. */
  decide(at: ChipPort, header: PacketHeader): ForwardingDecision;
  /**
   * A family's own quick count of a flow for a channel load, where it applies (issue 54 §11: a
   * torus's uniform load walked hop by hop through `decide` cost twenty times BlackWidow's per flow):
   * over typed arrays, it adds each channel's expected share of the flow, times `rate`, into `load`
   * (indexed as `channels`) and returns the share it cannot deliver — the same as the walk through
   * `decide` counts; undefined, having added nothing, for a flow only that walk follows.
   */
  readonly quickLoad?: {
    readonly channels: readonly string[];
    count(source: number, destination: number, plane: number, rate: number, load: Float64Array): number | undefined;
  };
}

export const channelName = (c: ChipPort) => `${c.chip}:${c.port}`;
