import { MigrationInterface, QueryRunner } from 'typeorm';

/** The first schema: fabrics and their chips, ports, links and lanes; faults; configuration
 * generations; events; traffic runs; drills; API keys and the audit log. */
export class InitialSchema1763712000000 implements MigrationInterface {
  name = 'InitialSchema1763712000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "fabric" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "name" varchar(200) NOT NULL, "family" varchar(32) NOT NULL, "description" text NOT NULL DEFAULT (''), "installation" text NOT NULL, "source" varchar(500) NOT NULL, "summary" text NOT NULL, "chipCount" integer NOT NULL, "portCount" integer NOT NULL, "linkCount" integer NOT NULL, "createdAt" datetime NOT NULL DEFAULT (datetime('now')), "updatedAt" datetime NOT NULL DEFAULT (datetime('now')))`,
    );
    await q.query(`CREATE UNIQUE INDEX "UQ_fabric_name" ON "fabric" ("name")`);
    await q.query(
      `CREATE TABLE "chip" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "fabricId" integer NOT NULL, "name" varchar(64) NOT NULL, "kind" varchar(16) NOT NULL, "model" varchar(32) NOT NULL, "slice" integer NOT NULL, "rank" integer NOT NULL, "processor" integer NOT NULL, "portCount" integer NOT NULL, "state" varchar(16) NOT NULL DEFAULT ('expected'), CONSTRAINT "FK_66ecb8e9bc781739d2eff118929" FOREIGN KEY ("fabricId") REFERENCES "fabric" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await q.query(`CREATE UNIQUE INDEX "UQ_chip_fabric_name" ON "chip" ("fabricId", "name")`);
    await q.query(
      `CREATE TABLE "port" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "fabricId" integer NOT NULL, "chipId" integer NOT NULL, "number" integer NOT NULL, "role" varchar(16) NOT NULL, "virtualRouter" integer NOT NULL DEFAULT (0), "logicalPort" integer, "state" varchar(16) NOT NULL DEFAULT ('expected'), CONSTRAINT "FK_7b363bedff7fc28b26346ee2e53" FOREIGN KEY ("chipId") REFERENCES "chip" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await q.query(`CREATE INDEX "IDX_port_fabric" ON "port" ("fabricId")`);
    await q.query(`CREATE UNIQUE INDEX "UQ_port_chip_number" ON "port" ("chipId", "number")`);
    await q.query(
      `CREATE TABLE "link" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "fabricId" integer NOT NULL, "aChipId" integer NOT NULL, "aPort" integer NOT NULL, "bChipId" integer NOT NULL, "bPort" integer NOT NULL, "cableClass" varchar(16) NOT NULL, "lengthMeters" real NOT NULL, "rateGbps" real NOT NULL, "lanes" integer NOT NULL, "state" varchar(16) NOT NULL DEFAULT ('expected'), CONSTRAINT "FK_b1c2e25138b84a5ac6c70921be7" FOREIGN KEY ("fabricId") REFERENCES "fabric" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await q.query(`CREATE INDEX "IDX_link_fabric" ON "link" ("fabricId")`);
    await q.query(`CREATE INDEX "IDX_link_a" ON "link" ("aChipId", "aPort")`);
    await q.query(`CREATE INDEX "IDX_link_b" ON "link" ("bChipId", "bPort")`);
    await q.query(
      `CREATE TABLE "lane" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "fabricId" integer NOT NULL, "linkId" integer NOT NULL, "end" varchar(1) NOT NULL, "lane" integer NOT NULL, "state" varchar(16) NOT NULL DEFAULT ('active'), "retryCount" integer NOT NULL DEFAULT (0), "updatedAt" datetime NOT NULL DEFAULT (datetime('now')), CONSTRAINT "FK_be6c90cad87bfeafac763677687" FOREIGN KEY ("linkId") REFERENCES "link" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await q.query(`CREATE UNIQUE INDEX "UQ_lane_link_end_lane" ON "lane" ("linkId", "end", "lane")`);
    await q.query(
      `CREATE TABLE "fault" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "fabricId" integer NOT NULL, "kind" varchar(16) NOT NULL, "chip" varchar(64) NOT NULL, "port" integer, "lane" integer, "source" varchar(16) NOT NULL, "note" text NOT NULL DEFAULT (''), "declaredAt" datetime NOT NULL DEFAULT (datetime('now')), "clearedAt" datetime, CONSTRAINT "FK_0c16ec700ff724567ade123478d" FOREIGN KEY ("fabricId") REFERENCES "fabric" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await q.query(`CREATE INDEX "IDX_fault_fabric" ON "fault" ("fabricId", "clearedAt")`);
    await q.query(
      `CREATE TABLE "config_generation" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "fabricId" integer NOT NULL, "number" integer NOT NULL, "engine" varchar(32) NOT NULL, "image" text NOT NULL, "diff" text NOT NULL, "state" varchar(16) NOT NULL, "verification" text NOT NULL DEFAULT (''), "createdAt" datetime NOT NULL DEFAULT (datetime('now')), "pushedAt" datetime, CONSTRAINT "FK_8e382605813168166abe25d6c9e" FOREIGN KEY ("fabricId") REFERENCES "fabric" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await q.query(`CREATE UNIQUE INDEX "UQ_generation_fabric_number" ON "config_generation" ("fabricId", "number")`);
    await q.query(
      `CREATE TABLE "fabric_event" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "fabricId" integer, "kind" varchar(40) NOT NULL, "emulatedTimeNs" real, "wallTime" datetime NOT NULL DEFAULT (datetime('now')), "chip" varchar(64), "port" integer, "vc" integer, "lane" integer, "details" text NOT NULL)`,
    );
    await q.query(`CREATE INDEX "IDX_event_fabric_id" ON "fabric_event" ("fabricId", "id")`);
    await q.query(
      `CREATE TABLE "traffic_run" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "fabricId" integer NOT NULL, "pattern" varchar(40) NOT NULL, "parameters" text NOT NULL, "state" varchar(16) NOT NULL, "results" text, "startedAt" datetime NOT NULL DEFAULT (datetime('now')), "finishedAt" datetime, CONSTRAINT "FK_e911436b871446e170400e00592" FOREIGN KEY ("fabricId") REFERENCES "fabric" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await q.query(
      `CREATE TABLE "drill" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "name" varchar(200) NOT NULL, "definition" text NOT NULL, "createdAt" datetime NOT NULL DEFAULT (datetime('now')))`,
    );
    await q.query(`CREATE UNIQUE INDEX "UQ_drill_name" ON "drill" ("name")`);
    await q.query(
      `CREATE TABLE "drill_run" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "drillId" integer NOT NULL, "state" varchar(16) NOT NULL, "report" text, "startedAt" datetime NOT NULL DEFAULT (datetime('now')), "finishedAt" datetime, CONSTRAINT "FK_f399048eaa79ea0927e0bd39e7b" FOREIGN KEY ("drillId") REFERENCES "drill" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await q.query(
      `CREATE TABLE "api_key" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "name" varchar(100) NOT NULL, "role" varchar(16) NOT NULL, "prefix" varchar(16) NOT NULL, "secretHash" varchar(64) NOT NULL, "createdAt" datetime NOT NULL DEFAULT (datetime('now')), "lastUsedAt" datetime, "revokedAt" datetime)`,
    );
    await q.query(`CREATE UNIQUE INDEX "UQ_api_key_prefix" ON "api_key" ("prefix")`);
    await q.query(
      `CREATE TABLE "audit_entry" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "apiKeyId" integer, "actor" varchar(200) NOT NULL, "action" varchar(100) NOT NULL, "arguments" text NOT NULL, "outcome" varchar(40) NOT NULL, "at" datetime NOT NULL DEFAULT (datetime('now')))`,
    );
    await q.query(`CREATE INDEX "IDX_audit_at" ON "audit_entry" ("at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'audit_entry',
      'api_key',
      'drill_run',
      'drill',
      'traffic_run',
      'fabric_event',
      'config_generation',
      'fault',
      'lane',
      'link',
      'port',
      'chip',
      'fabric',
    ]) {
      await q.query(`DROP TABLE "${table}"`);
    }
  }
}
