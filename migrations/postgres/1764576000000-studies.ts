import { MigrationInterface, QueryRunner } from 'typeorm';

/** Studies and their points; see ../1764576000000-studies.ts. */
export class PostgresStudies1764576000000 implements MigrationInterface {
  name = 'PostgresStudies1764576000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "study" ("id" SERIAL NOT NULL, "fabricId" integer, "kind" character varying(16) NOT NULL, "generation" integer, "parameters" text NOT NULL, "state" character varying(16) NOT NULL, "createdAt" TIMESTAMP NOT NULL DEFAULT now(), "finishedAt" TIMESTAMP, CONSTRAINT "PK_ae14dbea0172b8521edb2ce4597" PRIMARY KEY ("id"))`,
    );
    await q.query(
      `CREATE TABLE "study_point" ("id" SERIAL NOT NULL, "studyId" integer NOT NULL, "index" integer NOT NULL, "parameters" text NOT NULL, "state" character varying(16) NOT NULL, "result" text, "worker" character varying(255), "attempts" integer NOT NULL DEFAULT '0', "startedAt" TIMESTAMP, "finishedAt" TIMESTAMP, CONSTRAINT "PK_13333a40d88d55b8c7c62159153" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE UNIQUE INDEX "UQ_study_point_index" ON "study_point" ("studyId", "index") `);
    await q.query(
      `ALTER TABLE "study" ADD CONSTRAINT "FK_bc0df84c04c485fa6069b6c67da" FOREIGN KEY ("fabricId") REFERENCES "fabric"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "study_point" ADD CONSTRAINT "FK_101861f318a032c86b09edb82bb" FOREIGN KEY ("studyId") REFERENCES "study"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "study_point" DROP CONSTRAINT "FK_101861f318a032c86b09edb82bb"`);
    await q.query(`ALTER TABLE "study" DROP CONSTRAINT "FK_bc0df84c04c485fa6069b6c67da"`);
    await q.query(`DROP INDEX "public"."UQ_study_point_index"`);
    await q.query(`DROP TABLE "study_point"`);
    await q.query(`DROP TABLE "study"`);
  }
}
