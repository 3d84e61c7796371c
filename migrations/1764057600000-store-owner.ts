import { MigrationInterface, QueryRunner } from 'typeorm';

/** One service owns a store at a time (store_owner: at most one row, renewed while it runs);
 * store_probe stays empty: readiness writes into it and rolls back, to learn whether the store can
 * still grow. */
export class StoreOwner1764057600000 implements MigrationInterface {
  name = 'StoreOwner1764057600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "store_owner" ("id" integer PRIMARY KEY NOT NULL, "ownerId" varchar(36) NOT NULL, "pid" integer NOT NULL, "host" varchar(255) NOT NULL, "startedAt" datetime NOT NULL, "heartbeatAt" datetime NOT NULL)`,
    );
    await q.query(`CREATE TABLE "store_probe" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "payload" blob NOT NULL)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "store_probe"`);
    await q.query(`DROP TABLE "store_owner"`);
  }
}
