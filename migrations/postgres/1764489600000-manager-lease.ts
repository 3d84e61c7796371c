import { MigrationInterface, QueryRunner } from 'typeorm';

/** The owner's lease: its term (the fencing token) and its API's address; see ../1764489600000-manager-lease.ts. */
export class PostgresManagerLease1764489600000 implements MigrationInterface {
  name = 'PostgresManagerLease1764489600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "store_owner" ADD "term" bigint NOT NULL DEFAULT '0'`);
    await q.query(`ALTER TABLE "store_owner" ADD "url" character varying(255)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "store_owner" DROP COLUMN "url"`);
    await q.query(`ALTER TABLE "store_owner" DROP COLUMN "term"`);
  }
}
