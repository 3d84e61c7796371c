/**
 * A proof's verdict, as every family's verifier gives it and the driver reads it (issue 55: the
 * engine layer's, not one family's).
 */
export interface Violation {
  readonly kind:
    | 'unreachable'
    | 'endpoint-left-out'
    | 'uses-fault'
    | 'up-after-down'
    | 'too-many-hops'
    | 'table-capacity'
    | 'illegal-modulus'
    | 'bad-down-route'
    // BlueGene/L's (spec §1.4): hint registers (V1), the bubble's buffers and accounting (V4), a
    // fabric beyond the proof's reach.
    | 'hint-registers'
    | 'bubble-configuration'
    | 'not-proven'
    // Anton 2's (spec §2.4): coordinate, size and dateline registers (A-V1, A-V2), a dependency
    // cycle over the buffers (A-V3), a multicast tree (A-V4).
    | 'registers'
    | 'dependency-cycle'
    | 'multicast';
  readonly message: string;
}

export interface VerificationReport {
  readonly ok: boolean;
  readonly violations: Violation[];
  /** How many (virtual router, block, phase) states were decided. */
  readonly states: number;
  /** Pairs proven, in the family's own unit (source and destination chips, or a source router and a block of destinations). */
  readonly pairsProven: number;
  /** Live endpoints proven to reach every live destination they can be routed to; every other live
   * endpoint is either named in a violation or was declared unreachable by the caller (cut off by a
   * fault). */
  readonly endpointsProven: number;
  readonly maxHops: number;
}
