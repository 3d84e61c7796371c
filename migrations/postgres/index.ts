import { PostgresSchema1764400000000 } from './1764400000000-postgres-schema';
import { PostgresManagerLease1764489600000 } from './1764489600000-manager-lease';
import { PostgresStudies1764576000000 } from './1764576000000-studies';
import { PostgresDrillRunFabric1764662400000 } from './1764662400000-drill-run-fabric';
import { PostgresUnreachableRecords1764748800000 } from './1764748800000-unreachable-records';

/** Every PostgreSQL migration in order (see ../index.ts for SQLite's). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const POSTGRES_MIGRATIONS: Function[] = [
  PostgresSchema1764400000000,
  PostgresManagerLease1764489600000,
  PostgresStudies1764576000000,
  PostgresDrillRunFabric1764662400000,
  PostgresUnreachableRecords1764748800000,
];
