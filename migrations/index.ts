import { InitialSchema1763712000000 } from './1763712000000-initial-schema';
import { EventAcknowledgement1763798400000 } from './1763798400000-event-acknowledgement';
import { PushRecords1763884800000 } from './1763884800000-push-records';
import { GenerationCircumstances1763971200000 } from './1763971200000-generation-circumstances';
import { StoreOwner1764057600000 } from './1764057600000-store-owner';
import { FabricSourceNames1764057700000 } from './1764057700000-fabric-source-names';
import { GenerationDeltas1764144000000 } from './1764144000000-generation-deltas';
import { ChipPlacement1764230400000 } from './1764230400000-chip-placement';
import { RoutingSettings1764316800000 } from './1764316800000-routing-settings';
import { ManagerLease1764489600000 } from './1764489600000-manager-lease';
import { Studies1764576000000 } from './1764576000000-studies';
import { DrillRunFabric1764662400000 } from './1764662400000-drill-run-fabric';
import { UnreachableRecords1764748800000 } from './1764748800000-unreachable-records';

/** Every migration in order. Listed by hand (no glob) so the same list works from TypeScript in
 * tests and from the compiled service. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const MIGRATIONS: Function[] = [
  InitialSchema1763712000000,
  EventAcknowledgement1763798400000,
  PushRecords1763884800000,
  GenerationCircumstances1763971200000,
  StoreOwner1764057600000,
  FabricSourceNames1764057700000,
  GenerationDeltas1764144000000,
  ChipPlacement1764230400000,
  RoutingSettings1764316800000,
  ManagerLease1764489600000,
  Studies1764576000000,
  DrillRunFabric1764662400000,
  UnreachableRecords1764748800000,
];
