import { Column, CreateDateColumn, Entity, Index, OneToMany, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { Chip } from './chip.entity';

/** A fabric under management: the operator's installation file and its expected design. */
@Entity('fabric')
export class Fabric {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index('UQ_fabric_name', { unique: true })
  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Column({ type: 'varchar', length: 32 })
  family!: string;

  @Column({ type: 'text', default: '' })
  description!: string;

  /** The installation file as loaded (normalised JSON), so the fabric can be rebuilt on restart. */
  @Column({ type: 'text' })
  installation!: string;

  /** Where the installation came from: a fixture path or `inline`. */
  @Column({ type: 'varchar', length: 500 })
  source!: string;

  /** Shape summary of the expected design, e.g. `{"network":"R1.5","processors":288}`. */
  @Column({ type: 'simple-json' })
  summary!: Record<string, string | number>;

  @Column({ type: 'integer' })
  chipCount!: number;

  @Column({ type: 'integer' })
  portCount!: number;

  @Column({ type: 'integer' })
  linkCount!: number;

  @CreateDateColumn()
  createdAt!: Date;

  @UpdateDateColumn()
  updatedAt!: Date;

  @OneToMany('Chip', 'fabric')
  chips?: Chip[];
}
