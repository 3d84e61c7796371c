import { MigrationInterface, QueryRunner } from 'typeorm';

/** The store's owner holds a lease (issue 40's active/standby pair): its term — the fencing token a
 * fabric process checks, rising with each claim and kept across releases — and the address its API
 * answers at, which a standby names when it refuses a write. */
export class ManagerLease1764489600000 implements MigrationInterface {
  name = 'ManagerLease1764489600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "store_owner" ADD COLUMN "term" bigint NOT NULL DEFAULT (0)`);
    await q.query(`ALTER TABLE "store_owner" ADD COLUMN "url" varchar(255)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "store_owner" DROP COLUMN "url"`);
    await q.query(`ALTER TABLE "store_owner" DROP COLUMN "term"`);
  }
}
