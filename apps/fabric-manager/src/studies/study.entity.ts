import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { Fabric } from '../fabrics/fabric.entity';

/**
 * A study: many independent runs on one fabric's configuration — a latency–load sweep's loads —
 * each a point done by whichever worker takes it off the queue (issue 40), or by the manager
 * itself when no queue is configured.
 */
@Entity('study')
export class Study {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  fabricId!: number;

  @ManyToOne('Fabric', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'fabricId' })
  fabric?: Fabric;

  /** `sweep`: a steady-state traffic run per offered load. */
  @Column({ type: 'varchar', length: 16 })
  kind!: string;

  /** The pushed generation every point runs under: a worker configures its own fabric with it. */
  @Column({ type: 'integer' })
  generation!: number;

  /** What every point shares (the traffic request but its load). */
  @Column({ type: 'simple-json' })
  parameters!: Record<string, unknown>;

  /** queued, running, finished (every point done) or failed (a point failed). */
  @Column({ type: 'varchar', length: 16 })
  state!: string;

  @CreateDateColumn()
  createdAt!: Date;

  @Column({ type: Date, nullable: true })
  finishedAt!: Date | null;
}
