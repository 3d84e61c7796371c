import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { DiscoveryState } from './chip.entity';
import type { Fabric } from './fabric.entity';

/** A cable between two chip ports. */
@Entity('link')
@Index('IDX_link_fabric', ['fabricId'])
@Index('IDX_link_a', ['aChipId', 'aPort'])
@Index('IDX_link_b', ['bChipId', 'bPort'])
export class Link {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  fabricId!: number;

  @ManyToOne('Fabric', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'fabricId' })
  fabric?: Fabric;

  @Column({ type: 'integer' })
  aChipId!: number;

  @Column({ type: 'integer' })
  aPort!: number;

  @Column({ type: 'integer' })
  bChipId!: number;

  @Column({ type: 'integer' })
  bPort!: number;

  /** injection, up, side or unplanned. */
  @Column({ type: 'varchar', length: 16 })
  cableClass!: string;

  @Column({ type: 'real' })
  lengthMeters!: number;

  @Column({ type: 'real' })
  rateGbps!: number;

  @Column({ type: 'integer' })
  lanes!: number;

  @Column({ type: 'varchar', length: 16, default: 'expected' })
  state!: DiscoveryState;
}
