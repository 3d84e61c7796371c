import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { Fabric } from '../fabrics/fabric.entity';

/** A numbered configuration of a fabric: the register image of every chip — stored whole, or as a
 * delta on an earlier generation (GenerationImages reads either) — and its diff from the previous
 * generation (DESIGN.md, "Configuration generations"). */
@Entity('config_generation')
@Index('UQ_generation_fabric_number', ['fabricId', 'number'], { unique: true })
export class ConfigGeneration {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  fabricId!: number;

  @ManyToOne('Fabric', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'fabricId' })
  fabric?: Fabric;

  @Column({ type: 'integer' })
  number!: number;

  /** Routing engine that produced it. */
  @Column({ type: 'varchar', length: 32 })
  engine!: string;

  /** The image (JSON): whole when `parentNumber` is null, else an ImageDelta on that generation. */
  @Column({ type: 'text' })
  image!: string;

  /** The generation of the same fabric whose image `image` patches; null: `image` is whole. */
  @Column({ type: 'integer', nullable: true })
  parentNumber!: number | null;

  /** Registers changed since the previous generation (JSON). */
  @Column({ type: 'text' })
  diff!: string;

  /** computed, rejected, pushing, pushed or rolled-back. */
  @Column({ type: 'varchar', length: 16 })
  state!: string;

  @Column({ type: 'text', default: '' })
  verification!: string;

  /** What it was computed from besides the design (JSON GenerationCircumstances: the faults in
   * force, the sweep's findings); '' for generations stored before weft kept them. */
  @Column({ type: 'text', default: '' })
  circumstances!: string;

  @CreateDateColumn()
  createdAt!: Date;

  @Column({ type: Date, nullable: true })
  pushedAt!: Date | null;
}
