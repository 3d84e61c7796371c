/**
 * What a traffic run may ask of a fabric, by family (families.ts): how many endpoints it numbers,
 * the injection ports each has (one per independent network of the fabric), the packet sizes its chips carry, and
 * what the patterns need (endpoints per router, a torus's radices). The service checks a run
 * against it before the emulator sees it, and the emulator again when the run starts.
 */
export interface TrafficShape {
  readonly endpoints: number;
  /** Injection ports per endpoint that a run may name (`slices` 0 … slices−1). */
  readonly slices: number;
  /** Endpoints per first-rank router (the adversarial pattern's "router"). */
  readonly endpointsPerRouter: number;
  /** A torus's radix per dimension, x first (the torus patterns; absent elsewhere). */
  readonly torus?: readonly number[];
  /**
   * Packet sizes in phits — what a link carries per cycle (a BG/L link carries one byte per
   * network cycle, so its phit is a byte) — and, where the chip moves packets
   * in units of several phits, the unit every size must be a multiple of.
   */
  readonly packetPhits: { readonly min: number; readonly max: number; readonly multipleOf?: number };
  /** Whether a run may send to multicast groups (Anton 2's tables, §2.3). */
  readonly multicast?: boolean;
}
