import { MigrationInterface, QueryRunner } from 'typeorm';

/** A generation may be stored as a delta on an earlier one (issue 35): "parentNumber" names the
 * generation of the same fabric its image column patches; null, as for every generation stored
 * before, means the column holds the whole image. */
export class GenerationDeltas1764144000000 implements MigrationInterface {
  name = 'GenerationDeltas1764144000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "config_generation" ADD COLUMN "parentNumber" integer`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "config_generation" DROP COLUMN "parentNumber"`);
  }
}
