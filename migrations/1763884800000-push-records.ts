import { MigrationInterface, QueryRunner } from 'typeorm';

/** Pushes are recorded phase by phase, so that one a crash interrupted is finished on restart. */
export class PushRecords1763884800000 implements MigrationInterface {
  name = 'PushRecords1763884800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "push" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "fabricId" integer NOT NULL, "generationId" integer NOT NULL, "fromGeneration" integer, "phases" integer NOT NULL, "phasesDone" integer NOT NULL DEFAULT (0), "writes" integer NOT NULL, "state" varchar(16) NOT NULL, "detail" text NOT NULL DEFAULT (''), "startedAt" datetime NOT NULL DEFAULT (datetime('now')), "finishedAt" datetime, CONSTRAINT "FK_ab58c82250b6ef4f219eb5d05ed" FOREIGN KEY ("fabricId") REFERENCES "fabric" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, CONSTRAINT "FK_0d33c0c1e8ce16868edc148c9b4" FOREIGN KEY ("generationId") REFERENCES "config_generation" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await q.query(`CREATE INDEX "IDX_push_fabric_state" ON "push" ("fabricId", "state")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "IDX_push_fabric_state"`);
    await q.query(`DROP TABLE "push"`);
  }
}
