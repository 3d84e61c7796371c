import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { Drill } from './drill.entity';

/** One run of a drill, with its stored report. */
@Entity('drill_run')
export class DrillRun {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  drillId!: number;

  @ManyToOne('Drill', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'drillId' })
  drill?: Drill;

  /** running, passed, failed or aborted. */
  @Column({ type: 'varchar', length: 16 })
  state!: string;

  @Column({ type: 'simple-json', nullable: true })
  report!: Record<string, unknown> | null;

  /** The fabric the run loaded (null until it has), and whether it is kept once the run ends. */
  @Column({ type: 'integer', nullable: true })
  fabricId!: number | null;

  @Column({ type: 'boolean', default: false })
  keepFabric!: boolean;

  @CreateDateColumn()
  startedAt!: Date;

  @Column({ type: Date, nullable: true })
  finishedAt!: Date | null;
}
