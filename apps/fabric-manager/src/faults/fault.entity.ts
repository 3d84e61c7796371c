import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { Fabric } from '../fabrics/fabric.entity';

/** A faulty element the routing must avoid (paper 000 §7.7): a cable, a router, a lane or an endpoint. */
@Entity('fault')
@Index('IDX_fault_fabric', ['fabricId', 'clearedAt'])
export class Fault {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  fabricId!: number;

  @ManyToOne('Fabric', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'fabricId' })
  fabric?: Fabric;

  /** link, router, lane or endpoint. */
  @Column({ type: 'varchar', length: 16 })
  kind!: string;

  @Column({ type: 'varchar', length: 64 })
  chip!: string;

  @Column({ type: 'integer', nullable: true })
  port!: number | null;

  @Column({ type: 'integer', nullable: true })
  lane!: number | null;

  /** `interrupt` when the fabric reported it, `operator` when declared by hand. */
  @Column({ type: 'varchar', length: 16 })
  source!: string;

  @Column({ type: 'text', default: '' })
  note!: string;

  @CreateDateColumn()
  declaredAt!: Date;

  @Column({ type: Date, nullable: true })
  clearedAt!: Date | null;
}
