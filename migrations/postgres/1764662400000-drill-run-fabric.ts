import { MigrationInterface, QueryRunner } from 'typeorm';

/** A drill run's fabric and whether to keep it; see ../1764662400000-drill-run-fabric.ts. */
export class PostgresDrillRunFabric1764662400000 implements MigrationInterface {
  name = 'PostgresDrillRunFabric1764662400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "drill_run" ADD "fabricId" integer`);
    await q.query(`ALTER TABLE "drill_run" ADD "keepFabric" boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "drill_run" DROP COLUMN "keepFabric"`);
    await q.query(`ALTER TABLE "drill_run" DROP COLUMN "fabricId"`);
  }
}
