import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The service that owns the store — the active manager — holding it on a lease: one row (id 1). */
@Entity('store_owner')
export class StoreOwner {
  @PrimaryColumn({ type: 'integer' })
  id!: number;

  /** Random per service start: a takeover is seen by the owner it displaced. */
  @Column({ type: 'varchar', length: 36 })
  ownerId!: string;

  @Column({ type: 'integer' })
  pid!: number;

  @Column({ type: 'varchar', length: 255 })
  host!: string;

  @Column({ type: Date })
  startedAt!: Date;

  /** Renewed every few seconds while the owner runs; an owner silent for longer has gone. */
  @Column({ type: Date })
  heartbeatAt!: Date;

  /** When it was claimed, in ms since the epoch, and always above the term before it: the fencing
   * token a fabric process checks. Kept when the owner releases the store. */
  @Column({ type: 'bigint', default: 0 })
  term!: string;

  /** Where its API answers (set once it listens), for a standby to name. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  url!: string | null;
}
