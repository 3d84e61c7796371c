import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { Fabric } from '../fabrics/fabric.entity';

/**
 * What an operator chose of a fabric's routing, in its family's terms (its routing engine's
 * `settings`: Anton 2's arbiter weight patterns and multicast groups), as JSON. Every generation
 * computed for the fabric uses them; a fabric that has none uses its engine's defaults.
 */
@Entity('routing_settings')
export class RoutingSettings {
  @PrimaryColumn({ type: 'integer' })
  fabricId!: number;

  @OneToOne('Fabric', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'fabricId' })
  fabric?: Fabric;

  @Column({ type: 'text' })
  settings!: string;

  @UpdateDateColumn()
  updatedAt!: Date;
}
