import { MigrationInterface, QueryRunner } from 'typeorm';
import { UnreachableRecords1764748800000 } from '../1764748800000-unreachable-records';

/** Unreachable endpoints as records; see ../1764748800000-unreachable-records.ts (the same statements serve both stores). */
export class PostgresUnreachableRecords1764748800000 implements MigrationInterface {
  name = 'PostgresUnreachableRecords1764748800000';
  private readonly same = new UnreachableRecords1764748800000();

  up(q: QueryRunner): Promise<void> {
    return this.same.up(q);
  }

  down(q: QueryRunner): Promise<void> {
    return this.same.down(q);
  }
}
