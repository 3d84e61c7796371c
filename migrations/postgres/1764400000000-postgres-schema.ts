import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The whole schema on PostgreSQL (issue 40), as the SQLite migrations before it leave it: the
 * tables the entities describe, built by TypeORM's schema builder for PostgreSQL and kept here.
 * The three floating-point columns are double precision where SQLite's REAL already is one (an
 * event's emulated time in nanoseconds needs the 53 bits). A later schema change comes as a
 * migration for each store.
 */
export class PostgresSchema1764400000000 implements MigrationInterface {
  name = 'PostgresSchema1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "audit_entry" ("id" SERIAL NOT NULL, "apiKeyId" integer, "actor" character varying(200) NOT NULL, "action" character varying(100) NOT NULL, "arguments" text NOT NULL, "outcome" character varying(40) NOT NULL, "at" TIMESTAMP NOT NULL DEFAULT now(), CONSTRAINT "PK_58a130a4b9da189f46ba2a01801" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "IDX_audit_at" ON "audit_entry"  ("at") `);
    await q.query(
      `CREATE TABLE "api_key" ("id" SERIAL NOT NULL, "name" character varying(100) NOT NULL, "role" character varying(16) NOT NULL, "prefix" character varying(16) NOT NULL, "secretHash" character varying(64) NOT NULL, "createdAt" TIMESTAMP NOT NULL DEFAULT now(), "lastUsedAt" TIMESTAMP, "revokedAt" TIMESTAMP, CONSTRAINT "PK_b1bd840641b8acbaad89c3d8d11" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE UNIQUE INDEX "UQ_api_key_prefix" ON "api_key"  ("prefix") `);
    await q.query(
      `CREATE TABLE "config_generation" ("id" SERIAL NOT NULL, "fabricId" integer NOT NULL, "number" integer NOT NULL, "engine" character varying(32) NOT NULL, "image" text NOT NULL, "parentNumber" integer, "diff" text NOT NULL, "state" character varying(16) NOT NULL, "verification" text NOT NULL DEFAULT '', "circumstances" text NOT NULL DEFAULT '', "createdAt" TIMESTAMP NOT NULL DEFAULT now(), "pushedAt" TIMESTAMP, CONSTRAINT "PK_239cf66aeba55172f1e1a7920ce" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE UNIQUE INDEX "UQ_generation_fabric_number" ON "config_generation"  ("fabricId", "number") `);
    await q.query(
      `CREATE TABLE "push" ("id" SERIAL NOT NULL, "fabricId" integer NOT NULL, "generationId" integer NOT NULL, "fromGeneration" integer, "phases" integer NOT NULL, "phasesDone" integer NOT NULL DEFAULT '0', "writes" integer NOT NULL, "state" character varying(16) NOT NULL, "detail" text NOT NULL DEFAULT '', "startedAt" TIMESTAMP NOT NULL DEFAULT now(), "finishedAt" TIMESTAMP, CONSTRAINT "PK_ddc3812b04a238cbf8606c12ea6" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "IDX_push_fabric_state" ON "push"  ("fabricId", "state") `);
    await q.query(
      `CREATE TABLE "routing_settings" ("fabricId" integer NOT NULL, "settings" text NOT NULL, "updatedAt" TIMESTAMP NOT NULL DEFAULT now(), CONSTRAINT "PK_4b682f3e49848b2b5fbc57abe66" PRIMARY KEY ("fabricId"))`,
    );
    await q.query(
      `CREATE TABLE "drill" ("id" SERIAL NOT NULL, "name" character varying(200) NOT NULL, "definition" text NOT NULL, "createdAt" TIMESTAMP NOT NULL DEFAULT now(), CONSTRAINT "PK_66c24774414aa39260e1c6c286f" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE UNIQUE INDEX "UQ_drill_name" ON "drill"  ("name") `);
    await q.query(
      `CREATE TABLE "drill_run" ("id" SERIAL NOT NULL, "drillId" integer NOT NULL, "state" character varying(16) NOT NULL, "report" text, "startedAt" TIMESTAMP NOT NULL DEFAULT now(), "finishedAt" TIMESTAMP, CONSTRAINT "PK_38687b34ba99bae8f6d9133fd12" PRIMARY KEY ("id"))`,
    );
    await q.query(
      `CREATE TABLE "fabric_event" ("id" SERIAL NOT NULL, "fabricId" integer, "kind" character varying(40) NOT NULL, "emulatedTimeNs" double precision, "wallTime" TIMESTAMP NOT NULL DEFAULT now(), "chip" character varying(64), "port" integer, "vc" integer, "lane" integer, "details" text NOT NULL, "acknowledgedBy" character varying(200), "acknowledgedAt" TIMESTAMP, "acknowledgementNote" text, CONSTRAINT "PK_c8c71a6deda41240b34c918f137" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "IDX_event_fabric_id" ON "fabric_event"  ("fabricId", "id") `);
    await q.query(
      `CREATE TABLE "chip" ("id" SERIAL NOT NULL, "fabricId" integer NOT NULL, "name" character varying(64) NOT NULL, "kind" character varying(16) NOT NULL, "model" character varying(32) NOT NULL, "placement" text NOT NULL DEFAULT '{}', "processor" integer NOT NULL, "portCount" integer NOT NULL, "state" character varying(16) NOT NULL DEFAULT 'expected', CONSTRAINT "PK_0eabd6d84362221104bc2b2707a" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE UNIQUE INDEX "UQ_chip_fabric_name" ON "chip"  ("fabricId", "name") `);
    await q.query(
      `CREATE TABLE "fabric" ("id" SERIAL NOT NULL, "name" character varying(200) NOT NULL, "family" character varying(32) NOT NULL, "description" text NOT NULL DEFAULT '', "installation" text NOT NULL, "source" character varying(500) NOT NULL, "summary" text NOT NULL, "chipCount" integer NOT NULL, "portCount" integer NOT NULL, "linkCount" integer NOT NULL, "createdAt" TIMESTAMP NOT NULL DEFAULT now(), "updatedAt" TIMESTAMP NOT NULL DEFAULT now(), CONSTRAINT "PK_a79c5445789c6ea397fd9a7a865" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE UNIQUE INDEX "UQ_fabric_name" ON "fabric"  ("name") `);
    await q.query(
      `CREATE TABLE "lane" ("id" SERIAL NOT NULL, "fabricId" integer NOT NULL, "linkId" integer NOT NULL, "end" character varying(1) NOT NULL, "lane" integer NOT NULL, "state" character varying(16) NOT NULL DEFAULT 'active', "retryCount" integer NOT NULL DEFAULT '0', "updatedAt" TIMESTAMP NOT NULL DEFAULT now(), CONSTRAINT "PK_6f644b474f05aa5b7ffb22ba8e9" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE UNIQUE INDEX "UQ_lane_link_end_lane" ON "lane"  ("linkId", "end", "lane") `);
    await q.query(
      `CREATE TABLE "link" ("id" SERIAL NOT NULL, "fabricId" integer NOT NULL, "aChipId" integer NOT NULL, "aPort" integer NOT NULL, "bChipId" integer NOT NULL, "bPort" integer NOT NULL, "cableClass" character varying(16) NOT NULL, "lengthMeters" double precision NOT NULL, "rateGbps" double precision NOT NULL, "lanes" integer NOT NULL, "state" character varying(16) NOT NULL DEFAULT 'expected', CONSTRAINT "PK_26206fb7186da72fbb9eaa3fac9" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "IDX_link_b" ON "link"  ("bChipId", "bPort") `);
    await q.query(`CREATE INDEX "IDX_link_a" ON "link"  ("aChipId", "aPort") `);
    await q.query(`CREATE INDEX "IDX_link_fabric" ON "link"  ("fabricId") `);
    await q.query(
      `CREATE TABLE "port" ("id" SERIAL NOT NULL, "fabricId" integer NOT NULL, "chipId" integer NOT NULL, "number" integer NOT NULL, "role" character varying(16) NOT NULL, "virtualRouter" integer NOT NULL DEFAULT '0', "logicalPort" integer, "state" character varying(16) NOT NULL DEFAULT 'expected', CONSTRAINT "PK_78381adf2d2b42b2d4e4db5ffc0" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "IDX_port_fabric" ON "port"  ("fabricId") `);
    await q.query(`CREATE UNIQUE INDEX "UQ_port_chip_number" ON "port"  ("chipId", "number") `);
    await q.query(
      `CREATE TABLE "fault" ("id" SERIAL NOT NULL, "fabricId" integer NOT NULL, "kind" character varying(16) NOT NULL, "chip" character varying(64) NOT NULL, "port" integer, "lane" integer, "source" character varying(16) NOT NULL, "note" text NOT NULL DEFAULT '', "declaredAt" TIMESTAMP NOT NULL DEFAULT now(), "clearedAt" TIMESTAMP, CONSTRAINT "PK_491064e4de7cedcebff7206547b" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "IDX_fault_fabric" ON "fault"  ("fabricId", "clearedAt") `);
    await q.query(
      `CREATE TABLE "store_owner" ("id" integer NOT NULL, "ownerId" character varying(36) NOT NULL, "pid" integer NOT NULL, "host" character varying(255) NOT NULL, "startedAt" TIMESTAMP NOT NULL, "heartbeatAt" TIMESTAMP NOT NULL, CONSTRAINT "PK_8ce7c0371b6fca43a17f523ce44" PRIMARY KEY ("id"))`,
    );
    await q.query(
      `CREATE TABLE "traffic_run" ("id" SERIAL NOT NULL, "fabricId" integer NOT NULL, "pattern" character varying(40) NOT NULL, "parameters" text NOT NULL, "state" character varying(16) NOT NULL, "results" text, "startedAt" TIMESTAMP NOT NULL DEFAULT now(), "finishedAt" TIMESTAMP, CONSTRAINT "PK_3e18bee25fcc7b6a02d71421512" PRIMARY KEY ("id"))`,
    );
    await q.query(
      `ALTER TABLE "config_generation" ADD CONSTRAINT "FK_8e382605813168166abe25d6c9e" FOREIGN KEY ("fabricId") REFERENCES "fabric"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "push" ADD CONSTRAINT "FK_ab58c82250b6ef4f219eb5d05ed" FOREIGN KEY ("fabricId") REFERENCES "fabric"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "push" ADD CONSTRAINT "FK_0d33c0c1e8ce16868edc148c9b4" FOREIGN KEY ("generationId") REFERENCES "config_generation"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "routing_settings" ADD CONSTRAINT "FK_4b682f3e49848b2b5fbc57abe66" FOREIGN KEY ("fabricId") REFERENCES "fabric"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "drill_run" ADD CONSTRAINT "FK_f399048eaa79ea0927e0bd39e7b" FOREIGN KEY ("drillId") REFERENCES "drill"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "chip" ADD CONSTRAINT "FK_66ecb8e9bc781739d2eff118929" FOREIGN KEY ("fabricId") REFERENCES "fabric"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "lane" ADD CONSTRAINT "FK_be6c90cad87bfeafac763677687" FOREIGN KEY ("linkId") REFERENCES "link"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "link" ADD CONSTRAINT "FK_b1c2e25138b84a5ac6c70921be7" FOREIGN KEY ("fabricId") REFERENCES "fabric"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "port" ADD CONSTRAINT "FK_7b363bedff7fc28b26346ee2e53" FOREIGN KEY ("chipId") REFERENCES "chip"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "fault" ADD CONSTRAINT "FK_0c16ec700ff724567ade123478d" FOREIGN KEY ("fabricId") REFERENCES "fabric"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "traffic_run" ADD CONSTRAINT "FK_e911436b871446e170400e00592" FOREIGN KEY ("fabricId") REFERENCES "fabric"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "traffic_run" DROP CONSTRAINT "FK_e911436b871446e170400e00592"`);
    await q.query(`ALTER TABLE "fault" DROP CONSTRAINT "FK_0c16ec700ff724567ade123478d"`);
    await q.query(`ALTER TABLE "port" DROP CONSTRAINT "FK_7b363bedff7fc28b26346ee2e53"`);
    await q.query(`ALTER TABLE "link" DROP CONSTRAINT "FK_b1c2e25138b84a5ac6c70921be7"`);
    await q.query(`ALTER TABLE "lane" DROP CONSTRAINT "FK_be6c90cad87bfeafac763677687"`);
    await q.query(`ALTER TABLE "chip" DROP CONSTRAINT "FK_66ecb8e9bc781739d2eff118929"`);
    await q.query(`ALTER TABLE "drill_run" DROP CONSTRAINT "FK_f399048eaa79ea0927e0bd39e7b"`);
    await q.query(`ALTER TABLE "routing_settings" DROP CONSTRAINT "FK_4b682f3e49848b2b5fbc57abe66"`);
    await q.query(`ALTER TABLE "push" DROP CONSTRAINT "FK_0d33c0c1e8ce16868edc148c9b4"`);
    await q.query(`ALTER TABLE "push" DROP CONSTRAINT "FK_ab58c82250b6ef4f219eb5d05ed"`);
    await q.query(`ALTER TABLE "config_generation" DROP CONSTRAINT "FK_8e382605813168166abe25d6c9e"`);
    await q.query(`DROP TABLE "traffic_run"`);
    await q.query(`DROP TABLE "store_owner"`);
    await q.query(`DROP INDEX "public"."IDX_fault_fabric"`);
    await q.query(`DROP TABLE "fault"`);
    await q.query(`DROP INDEX "public"."UQ_port_chip_number"`);
    await q.query(`DROP INDEX "public"."IDX_port_fabric"`);
    await q.query(`DROP TABLE "port"`);
    await q.query(`DROP INDEX "public"."IDX_link_fabric"`);
    await q.query(`DROP INDEX "public"."IDX_link_a"`);
    await q.query(`DROP INDEX "public"."IDX_link_b"`);
    await q.query(`DROP TABLE "link"`);
    await q.query(`DROP INDEX "public"."UQ_lane_link_end_lane"`);
    await q.query(`DROP TABLE "lane"`);
    await q.query(`DROP INDEX "public"."UQ_fabric_name"`);
    await q.query(`DROP TABLE "fabric"`);
    await q.query(`DROP INDEX "public"."UQ_chip_fabric_name"`);
    await q.query(`DROP TABLE "chip"`);
    await q.query(`DROP INDEX "public"."IDX_event_fabric_id"`);
    await q.query(`DROP TABLE "fabric_event"`);
    await q.query(`DROP TABLE "drill_run"`);
    await q.query(`DROP INDEX "public"."UQ_drill_name"`);
    await q.query(`DROP TABLE "drill"`);
    await q.query(`DROP TABLE "routing_settings"`);
    await q.query(`DROP INDEX "public"."IDX_push_fabric_state"`);
    await q.query(`DROP TABLE "push"`);
    await q.query(`DROP INDEX "public"."UQ_generation_fabric_number"`);
    await q.query(`DROP TABLE "config_generation"`);
    await q.query(`DROP INDEX "public"."UQ_api_key_prefix"`);
    await q.query(`DROP TABLE "api_key"`);
    await q.query(`DROP INDEX "public"."IDX_audit_at"`);
    await q.query(`DROP TABLE "audit_entry"`);
  }
}
