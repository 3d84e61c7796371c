import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { Chip, DiscoveryState } from './chip.entity';

/** A physical port of a chip (paper 000 §3: one per YARC tile). */
@Entity('port')
@Index('UQ_port_chip_number', ['chipId', 'number'], { unique: true })
@Index('IDX_port_fabric', ['fabricId'])
export class Port {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  fabricId!: number;

  @Column({ type: 'integer' })
  chipId!: number;

  @ManyToOne('Chip', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'chipId' })
  chip?: Chip;

  /** Physical port number (0–63 on YARC). */
  @Column({ type: 'integer' })
  number!: number;

  /** Designed role: down, up, side, injection or unused. */
  @Column({ type: 'varchar', length: 16 })
  role!: string;

  /** Virtual router the port belongs to (paper 000 §7.4). */
  @Column({ type: 'integer', default: 0 })
  virtualRouter!: number;

  /** Logical port number assigned by the control plane (paper 000 §5), once known. */
  @Column({ type: 'integer', nullable: true })
  logicalPort!: number | null;

  @Column({ type: 'varchar', length: 16, default: 'expected' })
  state!: DiscoveryState;
}
