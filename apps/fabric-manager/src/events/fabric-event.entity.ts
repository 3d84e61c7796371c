import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** An interrupt from the fabric or an action of the control plane, stored before it is published.
 * Its id is the resume cursor of the event stream. */
@Entity('fabric_event')
@Index('IDX_event_fabric_id', ['fabricId', 'id'])
export class FabricEvent {
  @PrimaryGeneratedColumn()
  id!: number;

  /** Null for events about the service itself (e.g. a fabric that no longer exists). */
  @Column({ type: 'integer', nullable: true })
  fabricId!: number | null;

  @Column({ type: 'varchar', length: 40 })
  kind!: string;

  /** Emulated time in nanoseconds, when the event comes from the emulated fabric. */
  @Column({ type: 'real', nullable: true })
  emulatedTimeNs!: number | null;

  @CreateDateColumn()
  wallTime!: Date;

  @Column({ type: 'varchar', length: 64, nullable: true })
  chip!: string | null;

  @Column({ type: 'integer', nullable: true })
  port!: number | null;

  @Column({ type: 'integer', nullable: true })
  vc!: number | null;

  @Column({ type: 'integer', nullable: true })
  lane!: number | null;

  @Column({ type: 'simple-json' })
  details!: Record<string, unknown>;

  @Column({ type: 'varchar', length: 200, nullable: true })
  acknowledgedBy!: string | null;

  @Column({ type: Date, nullable: true })
  acknowledgedAt!: Date | null;

  @Column({ type: 'text', nullable: true })
  acknowledgementNote!: string | null;
}
