import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { Link } from './link.entity';

/**
 * One serial lane at one end of a link (paper 000 §4.4, §7.7: three lanes per port, each with a
 * retry counter; a noisy lane is decommissioned). Rows exist only for lanes the control plane has
 * observed — a healthy 32K fabric would otherwise need over a million identical rows.
 */
@Entity('lane')
@Index('UQ_lane_link_end_lane', ['linkId', 'end', 'lane'], { unique: true })
export class Lane {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  fabricId!: number;

  @Column({ type: 'integer' })
  linkId!: number;

  @ManyToOne('Link', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'linkId' })
  link?: Link;

  /** Which end of the link: `a` or `b`. */
  @Column({ type: 'varchar', length: 1 })
  end!: string;

  @Column({ type: 'integer' })
  lane!: number;

  /** `active` or `decommissioned`. */
  @Column({ type: 'varchar', length: 16, default: 'active' })
  state!: string;

  @Column({ type: 'integer', default: 0 })
  retryCount!: number;

  @UpdateDateColumn()
  updatedAt!: Date;
}
