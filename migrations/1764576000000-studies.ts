import { MigrationInterface, QueryRunner } from 'typeorm';

/** Studies (issue 40): a sweep's loads, a drill campaign's seeds or a channel-load study's draws as points, done by workers off a queue, each with its result. */
export class Studies1764576000000 implements MigrationInterface {
  name = 'Studies1764576000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "study" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "fabricId" integer, "kind" varchar(16) NOT NULL, "generation" integer, "parameters" text NOT NULL, "state" varchar(16) NOT NULL, "createdAt" datetime NOT NULL DEFAULT (datetime('now')), "finishedAt" datetime, CONSTRAINT "FK_bc0df84c04c485fa6069b6c67da" FOREIGN KEY ("fabricId") REFERENCES "fabric" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await q.query(
      `CREATE TABLE "study_point" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "studyId" integer NOT NULL, "index" integer NOT NULL, "parameters" text NOT NULL, "state" varchar(16) NOT NULL, "result" text, "worker" varchar(255), "attempts" integer NOT NULL DEFAULT (0), "startedAt" datetime, "finishedAt" datetime, CONSTRAINT "FK_101861f318a032c86b09edb82bb" FOREIGN KEY ("studyId") REFERENCES "study" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await q.query(`CREATE UNIQUE INDEX "UQ_study_point_index" ON "study_point" ("studyId", "index") `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "UQ_study_point_index"`);
    await q.query(`DROP TABLE "study_point"`);
    await q.query(`DROP TABLE "study"`);
  }
}
