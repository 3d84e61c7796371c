import { MigrationInterface, QueryRunner } from 'typeorm';

/** Events can be acknowledged by automation or an operator: who, when, and a note. */
export class EventAcknowledgement1763798400000 implements MigrationInterface {
  name = 'EventAcknowledgement1763798400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "fabric_event" ADD COLUMN "acknowledgedBy" varchar(200)`);
    await q.query(`ALTER TABLE "fabric_event" ADD COLUMN "acknowledgedAt" datetime`);
    await q.query(`ALTER TABLE "fabric_event" ADD COLUMN "acknowledgementNote" text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "fabric_event" DROP COLUMN "acknowledgementNote"`);
    await q.query(`ALTER TABLE "fabric_event" DROP COLUMN "acknowledgedAt"`);
    await q.query(`ALTER TABLE "fabric_event" DROP COLUMN "acknowledgedBy"`);
  }
}
