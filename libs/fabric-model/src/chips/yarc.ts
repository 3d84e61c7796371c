/**
 * The YARC datasheet (paper 000): the chip as its manual describes it, read by the emulator, which
 * models the chip from it, and by the control plane, which programs the chip by it. Both import
 * these figures from here and nowhere else; every figure names its section.
 *
 * A datasheet is the chip's manual, not ground truth: the emulator's model of the chip and the
 * control plane's reading of it are separate, and only the maintenance transport joins them.
 */

/** Core clock (§6: 800 MHz): one cycle is 1.25 ns. */
export const YARC_CLOCK_GHZ = 0.8;
export const NS_PER_CYCLE = 1 / YARC_CLOCK_GHZ;

/** §3: 64 ports as an 8×8 array of tiles; tile t is row t>>3, column t&7. */
export const PORTS = 64;
export const TILE_ROWS = 8;
export const TILE_COLUMNS = 8;

/** §4.2: two virtual channels, request (v=0) and response (v=1). */
export const VCS = 2;
export const VC_REQUEST = 0;
export const VC_RESPONSE = 1;

/** §4.2, §7.5: input buffer of 256 phits per port, partitioned over the two VCs. */
export const INPUT_BUFFER_PHITS = 256;
export const INPUT_BUFFER_PHITS_PER_VC = INPUT_BUFFER_PHITS / VCS;
/** §7.5: row buffers 16 phits, column buffers 10 phits (each partitioned over the VCs). */
export const ROW_BUFFER_PHITS = 16;
export const COLUMN_BUFFER_PHITS = 10;

/** §4.1: 24-bit phits; a packet is 4 phits at least; a 32-byte cache-line write is 19. */
export const PHIT_BITS = 24;
export const MIN_PACKET_PHITS = 4;
export const CACHE_LINE_WRITE_PHITS = 19;

/** §3, Figure 4: 25 pipeline stages, 31.25 ns zero-load latency through one router. */
export const PIPELINE_STAGES = 25;

/** §4.3, §4.4: three lanes per port; a noisy lane is decommissioned and the port runs narrower. */
export const LANES = 3;

/** §5.1: routing-table entries per tile. */
export const TABLE_ENTRIES = 8;

/** §5.1: 15-bit processor numbers, locations and masks. */
export const LOCATION_BITS = 15;
export const LOCATION_MASK = (1 << LOCATION_BITS) - 1;

/**
 * §5.1: whether a table entry (or a root-detect register) with this location and mask matches a
 * destination: the bits the mask leaves set are "don't care", every other bit must equal the
 * location's.
 */
export function locationMatches(destination: number, location: number, mask: number): boolean {
  return ((destination ^ location) & ~mask & LOCATION_MASK) === 0;
}

/** §7.8.2: 15 optional hash bits, of which a tile's register selects 8. */
export const HASH_BITS = 15;
export const SELECTED_HASH_BITS = 8;

/** §7.8.2: the 8 bits of the 15 optional hash bits that a tile's selection register picks, packed. */
export function selectHashBits(hashBits: number, select: number): number {
  let out = 0;
  let k = 0;
  for (let b = 0; b < HASH_BITS && k < SELECTED_HASH_BITS; b++) {
    if (select & (1 << b)) {
      if (hashBits & (1 << b)) out |= 1 << k;
      k++;
    }
  }
  return out;
}

/**
 * §5.1 / §7.8.2 deterministic hash, before the modulo by the matching entry's port count: the XOR
 * of the input port, the destination and (when the header's h bit is set) the tile's selected hash
 * bits, folded so that every destination bit reaches the low bits the modulo looks at. The paper
 * does not give the fold; this one is weft's (the emulator and the control plane both use it).
 */
export function yarcHash(inputPort: number, destination: number, selectedHashBits: number): number {
  return (inputPort ^ destination ^ (destination >>> 5) ^ (destination >>> 10) ^ selectedHashBits) & 0xffff;
}

/** §7.8.2: port counts the hardware takes an exact modulo of (2^k times 1, 3, 5 or 7, up to 32). */
export const LEGAL_MODULI: readonly number[] = [1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 28, 32];
const LEGAL = new Uint8Array(65);
for (const n of LEGAL_MODULI) LEGAL[n] = 1;
export function isLegalModulus(n: number): boolean {
  return n >= 0 && n <= 64 && LEGAL[n] === 1;
}

/** Port direction register values: which way a packet arriving on the port is travelling (§7.7). */
export const PORT_DOWNLINK = 0; // to a lower rank or a processor
export const PORT_UPLINK = 1; // to a higher rank
export const PORT_SIDELINK = 2; // to a peer subtree
export const PORT_UNUSED = 3;

/** What a chip's identity register says it is (read by discovery over the maintenance network). */
export const MODEL_YARC = 1;
export const MODEL_PROCESSOR = 2;

/** §2.2: a BlackWidow processor's network interface has one injection port per slice. */
export const PROCESSOR_PORTS = 4;
