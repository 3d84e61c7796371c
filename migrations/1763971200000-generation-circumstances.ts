import { MigrationInterface, QueryRunner } from 'typeorm';

/** A generation keeps what it was computed from — the faults in force and the sweep's findings —
 * so that a port it leaves unused can say why. Generations stored before it have none (''). */
export class GenerationCircumstances1763971200000 implements MigrationInterface {
  name = 'GenerationCircumstances1763971200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "config_generation" ADD COLUMN "circumstances" text NOT NULL DEFAULT ('')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "config_generation" DROP COLUMN "circumstances"`);
  }
}
