import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { Study } from './study.entity';

/** One point of a study: its own parameters (a sweep's load), who did it, and what it found. */
@Entity('study_point')
@Index('UQ_study_point_index', ['studyId', 'index'], { unique: true })
export class StudyPoint {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  studyId!: number;

  @ManyToOne('Study', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'studyId' })
  study?: Study;

  @Column({ type: 'integer' })
  index!: number;

  @Column({ type: 'simple-json' })
  parameters!: Record<string, unknown>;

  /** queued, running, done or failed. */
  @Column({ type: 'varchar', length: 16 })
  state!: string;

  /** The run's report (done), or `{ error }` (failed). */
  @Column({ type: 'simple-json', nullable: true })
  result!: Record<string, unknown> | null;

  /** Who did (or is doing) it: `host:pid` of a worker, or `manager`. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  worker!: string | null;

  /** How many times it was begun: more than one when a worker died during it and another took it. */
  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Column({ type: Date, nullable: true })
  startedAt!: Date | null;

  @Column({ type: Date, nullable: true })
  finishedAt!: Date | null;
}
