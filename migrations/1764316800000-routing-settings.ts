import { MigrationInterface, QueryRunner } from 'typeorm';

/** An operator's routing settings per fabric (issue 37: Anton 2's weight patterns and multicast groups), as its family's JSON. */
export class RoutingSettings1764316800000 implements MigrationInterface {
  name = 'RoutingSettings1764316800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "routing_settings" ("fabricId" integer PRIMARY KEY NOT NULL, "settings" text NOT NULL, "updatedAt" datetime NOT NULL DEFAULT (datetime('now')), CONSTRAINT "FK_4b682f3e49848b2b5fbc57abe66" FOREIGN KEY ("fabricId") REFERENCES "fabric" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "routing_settings"`);
  }
}
