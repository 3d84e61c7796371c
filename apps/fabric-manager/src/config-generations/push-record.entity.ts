import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { Fabric } from '../fabrics/fabric.entity';
import type { ConfigGeneration } from './config-generation.entity';

/**
 * One push of a generation into the fabric, recorded as it proceeds (phase by phase, see
 * libs/control push-plan.ts), so that a push a crash interrupted is found on restart and finished:
 * the service reads the fabric's registers back and writes what still differs.
 */
@Entity('push')
@Index('IDX_push_fabric_state', ['fabricId', 'state'])
export class PushRecord {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  fabricId!: number;

  @ManyToOne('Fabric', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'fabricId' })
  fabric?: Fabric;

  @Column({ type: 'integer' })
  generationId!: number;

  @ManyToOne('ConfigGeneration', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'generationId' })
  generation?: ConfigGeneration;

  /** Number of the generation the fabric held before (null: none). */
  @Column({ type: 'integer', nullable: true })
  fromGeneration!: number | null;

  @Column({ type: 'integer' })
  phases!: number;

  @Column({ type: 'integer', default: 0 })
  phasesDone!: number;

  @Column({ type: 'integer' })
  writes!: number;

  /** running, done, failed, or recovered (finished by reconciliation after a restart). */
  @Column({ type: 'varchar', length: 16 })
  state!: string;

  @Column({ type: 'text', default: '' })
  detail!: string;

  @CreateDateColumn()
  startedAt!: Date;

  @Column({ type: Date, nullable: true })
  finishedAt!: Date | null;
}
