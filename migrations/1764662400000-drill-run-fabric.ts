import { MigrationInterface, QueryRunner } from 'typeorm';

/** A drill run names the fabric it loaded and whether to keep it, so that a manager taking over
 * from one killed mid-drill deletes the fabric the run left behind (issue 54). */
export class DrillRunFabric1764662400000 implements MigrationInterface {
  name = 'DrillRunFabric1764662400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "drill_run" ADD COLUMN "fabricId" integer`);
    await q.query(`ALTER TABLE "drill_run" ADD COLUMN "keepFabric" boolean NOT NULL DEFAULT (0)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "drill_run" DROP COLUMN "keepFabric"`);
    await q.query(`ALTER TABLE "drill_run" DROP COLUMN "fabricId"`);
  }
}
