import { AuditEntry } from '../audit/audit-entry.entity';
import { ApiKey } from '../auth/api-key.entity';
import { ConfigGeneration } from '../config-generations/config-generation.entity';
import { PushRecord } from '../config-generations/push-record.entity';
import { RoutingSettings } from '../control/routing-settings.entity';
import { Drill } from '../drills/drill.entity';
import { DrillRun } from '../drills/drill-run.entity';
import { FabricEvent } from '../events/fabric-event.entity';
import { Chip } from '../fabrics/chip.entity';
import { Fabric } from '../fabrics/fabric.entity';
import { Lane } from '../fabrics/lane.entity';
import { Link } from '../fabrics/link.entity';
import { Port } from '../fabrics/port.entity';
import { Fault } from '../faults/fault.entity';
import { StoreOwner } from './store-owner.entity';
import { TrafficRun } from '../traffic/traffic-run.entity';
import { Study } from '../studies/study.entity';
import { StudyPoint } from '../studies/study-point.entity';

/** Every entity of the store, listed once for the DataSource, the Nest module and the tests. */
export const ENTITIES = [
  Fabric,
  Chip,
  Port,
  Link,
  Lane,
  Fault,
  ConfigGeneration,
  PushRecord,
  FabricEvent,
  TrafficRun,
  Drill,
  DrillRun,
  ApiKey,
  AuditEntry,
  StoreOwner,
  RoutingSettings,
  Study,
  StudyPoint,
];
