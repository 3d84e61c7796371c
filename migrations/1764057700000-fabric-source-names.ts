import { MigrationInterface, QueryRunner } from 'typeorm';

/** Fabrics loaded from fixtures are named `fixture:<name>`, no longer by the server's absolute path
 * (which every client could read in Fabric.source). The paths are not restored by down(): they
 * named directories of the machine that loaded them, and nothing reads them. */
export class FabricSourceNames1764057700000 implements MigrationInterface {
  name = 'FabricSourceNames1764057700000';

  async up(q: QueryRunner): Promise<void> {
    const rows = (await q.query(`SELECT "id", "source" FROM "fabric" WHERE "source" LIKE '%/fixtures/%.json'`)) as { id: number; source: string }[];
    for (const row of rows) {
      const name = row.source.slice(row.source.lastIndexOf('/fixtures/') + '/fixtures/'.length).replace(/\.json$/, '');
      await q.query(`UPDATE "fabric" SET "source" = ? WHERE "id" = ?`, [`fixture:${name}`, row.id]);
    }
  }

  async down(): Promise<void> {
    // Nothing to undo: the new names are valid under the previous schema too.
  }
}
