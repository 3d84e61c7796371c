import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { Fabric } from '../fabrics/fabric.entity';

/**
 * A study: many independent runs — a latency–load sweep's loads, a drill's seeds, a pattern's draws —
 * each a point done by whichever worker takes it off the queue (issue 40), or by the manager
 * itself when no queue is configured.
 */
@Entity('study')
export class Study {
  @PrimaryGeneratedColumn()
  id!: number;

  /** The fabric its points run on (a copy each, configured alike); null for a drill campaign, whose drill loads its own. */
  @Column({ type: 'integer', nullable: true })
  fabricId!: number | null;

  @ManyToOne('Fabric', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'fabricId' })
  fabric?: Fabric;

  /** `sweep`: a steady-state traffic run per offered load; `drill-campaign`: a drill run per seed;
   * `channel-load`: a pattern's channel loads per seed of its random draws. */
  @Column({ type: 'varchar', length: 16 })
  kind!: string;

  /** The pushed generation every point runs under: a worker configures its own fabric with it (null for a drill campaign). */
  @Column({ type: 'integer', nullable: true })
  generation!: number | null;

  /** What every point shares (a sweep: the traffic request but its load; a campaign: the drill). */
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
