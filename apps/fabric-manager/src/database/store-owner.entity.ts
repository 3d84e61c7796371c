import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The service that owns the store: one row (id 1) while a service runs on it. */
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
}
