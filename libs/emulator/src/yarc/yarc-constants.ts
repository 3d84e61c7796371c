/**
 * The YARC figures the emulator models the chip by: the datasheet's (libs/fabric-model/src/chips/
 * yarc.ts, which the control plane reads too), as plain values for the hot loops, and the model's
 * own choices where the paper leaves one open.
 */
import * as yarc from '@weft/fabric-model/chips/yarc';

export const YARC_CLOCK_GHZ = yarc.YARC_CLOCK_GHZ;
export const NS_PER_CYCLE = yarc.NS_PER_CYCLE;
export const PORTS = yarc.PORTS;
export const TILE_ROWS = yarc.TILE_ROWS;
export const TILE_COLUMNS = yarc.TILE_COLUMNS;
export const VCS = yarc.VCS;
export const VC_REQUEST = yarc.VC_REQUEST;
export const VC_RESPONSE = yarc.VC_RESPONSE;
export const INPUT_BUFFER_PHITS = yarc.INPUT_BUFFER_PHITS;
export const INPUT_BUFFER_PHITS_PER_VC = yarc.INPUT_BUFFER_PHITS_PER_VC;
export const ROW_BUFFER_PHITS = yarc.ROW_BUFFER_PHITS;
export const COLUMN_BUFFER_PHITS = yarc.COLUMN_BUFFER_PHITS;
export const PHIT_BITS = yarc.PHIT_BITS;
export const MIN_PACKET_PHITS = yarc.MIN_PACKET_PHITS;
export const CACHE_LINE_WRITE_PHITS = yarc.CACHE_LINE_WRITE_PHITS;
export const PIPELINE_STAGES = yarc.PIPELINE_STAGES;
export const LANES = yarc.LANES;
export const TABLE_ENTRIES = yarc.TABLE_ENTRIES;
export const LOCATION_BITS = yarc.LOCATION_BITS;
export const LOCATION_MASK = yarc.LOCATION_MASK;
export const HASH_BITS = yarc.HASH_BITS;
export const SELECTED_HASH_BITS = yarc.SELECTED_HASH_BITS;
export const LEGAL_MODULI = yarc.LEGAL_MODULI;
export const isLegalModulus = yarc.isLegalModulus;
export const PORT_DOWNLINK = yarc.PORT_DOWNLINK;
export const PORT_UPLINK = yarc.PORT_UPLINK;
export const PORT_SIDELINK = yarc.PORT_SIDELINK;
export const PORT_UNUSED = yarc.PORT_UNUSED;

/**
 * How the 25 stages split between the blocks of Figure 4 (each block has input and output
 * registers; extra stages pipeline the row-bus and column-channel wires). The split decides where
 * a packet waits under contention; the sum is the paper's figure. The paper gives only the sum:
 * this split is the model's choice.
 */
export const STAGES_INPUT_QUEUE = 7; // LCB receive, input buffer write, route computation
export const STAGES_ROW_BUS = 4; // row bus to the subswitch, row buffer write
export const STAGES_SUBSWITCH = 5; // 8-to-1 subswitch arbitration, crossbar
export const STAGES_COLUMN_CHANNEL = 4; // column channel to the output tile, column buffer write
export const STAGES_OUTPUT = 5; // 8-to-1 output arbitration, 2-to-1 VC, LCB transmit
export const PIPELINE_CHECK = STAGES_INPUT_QUEUE + STAGES_ROW_BUS + STAGES_SUBSWITCH + STAGES_COLUMN_CHANNEL + STAGES_OUTPUT;
