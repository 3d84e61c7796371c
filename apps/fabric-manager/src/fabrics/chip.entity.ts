import { Column, Entity, Index, ManyToOne, JoinColumn, PrimaryGeneratedColumn } from 'typeorm';
import type { Fabric } from './fabric.entity';

/** Where a chip, port or link stands with the control plane: designed but not yet seen,
 * discovered as designed, designed but not found, or found but not designed. */
export type DiscoveryState = 'expected' | 'discovered' | 'missing' | 'unexpected';

/** A router or endpoint chip of a fabric. Rows start from the expected design; discovery updates them. */
@Entity('chip')
@Index('UQ_chip_fabric_name', ['fabricId', 'name'], { unique: true })
export class Chip {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  fabricId!: number;

  @ManyToOne('Fabric', 'chips', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'fabricId' })
  fabric?: Fabric;

  @Column({ type: 'varchar', length: 64 })
  name!: string;

  /** `router` or `endpoint`. */
  @Column({ type: 'varchar', length: 16 })
  kind!: string;

  @Column({ type: 'varchar', length: 32 })
  model!: string;

  /** Where it sits in its fabric, in its family's terms (JSON; BlackWidow: {"slice", "rank"}). */
  @Column({ type: 'text', default: '{}' })
  placement!: string;

  @Column({ type: 'integer' })
  processor!: number;

  @Column({ type: 'integer' })
  portCount!: number;

  @Column({ type: 'varchar', length: 16, default: 'expected' })
  state!: DiscoveryState;
}
