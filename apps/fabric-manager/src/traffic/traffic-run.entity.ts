import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { Fabric } from '../fabrics/fabric.entity';

/** A traffic run on the emulated fabric: pattern, parameters, and measured results. */
@Entity('traffic_run')
export class TrafficRun {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  fabricId!: number;

  @ManyToOne('Fabric', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'fabricId' })
  fabric?: Fabric;

  @Column({ type: 'varchar', length: 40 })
  pattern!: string;

  @Column({ type: 'simple-json' })
  parameters!: Record<string, unknown>;

  /** queued, running, finished or failed. */
  @Column({ type: 'varchar', length: 16 })
  state!: string;

  @Column({ type: 'simple-json', nullable: true })
  results!: Record<string, unknown> | null;

  @CreateDateColumn()
  startedAt!: Date;

  @Column({ type: Date, nullable: true })
  finishedAt!: Date | null;
}
