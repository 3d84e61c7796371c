// The maintenance transport is defined beside the chips' datasheets (libs/fabric-model/src/
// maintenance), where the emulator imports it too; the control plane's own name for it.
export type { InterruptRecord, MaintenanceFailure, MaintenanceResult, MaintenanceTransport, RegisterValue, SourceRoute } from '@weft/fabric-model';
