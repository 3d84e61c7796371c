import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A chip's place in its fabric is stored in its family's own terms (issue 35): one JSON column,
 * "placement" (BlackWidow: {"slice", "rank"}; a torus: its coordinates), instead of BlackWidow's
 * slice and rank columns, which every other family would have had to fake.
 */
export class ChipPlacement1764230400000 implements MigrationInterface {
  name = 'ChipPlacement1764230400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "chip" ADD COLUMN "placement" text NOT NULL DEFAULT ('{}')`);
    await q.query(`UPDATE "chip" SET "placement" = json_object('slice', "slice", 'rank', "rank")`);
    await q.query(`ALTER TABLE "chip" DROP COLUMN "slice"`);
    await q.query(`ALTER TABLE "chip" DROP COLUMN "rank"`);
  }

  /** Back to slice and rank columns (0 where a placement has none: SQLite adds a NOT NULL column only with a default). */
  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "chip" ADD COLUMN "slice" integer NOT NULL DEFAULT (0)`);
    await q.query(`ALTER TABLE "chip" ADD COLUMN "rank" integer NOT NULL DEFAULT (0)`);
    await q.query(`UPDATE "chip" SET "slice" = COALESCE(json_extract("placement", '$.slice'), 0), "rank" = COALESCE(json_extract("placement", '$.rank'), 0)`);
    await q.query(`ALTER TABLE "chip" DROP COLUMN "placement"`);
  }
}
