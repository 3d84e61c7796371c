import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A fault-injection drill: a fabric, traffic, a timeline of actions and expectations. */
@Entity('drill')
export class Drill {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index('UQ_drill_name', { unique: true })
  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Column({ type: 'simple-json' })
  definition!: Record<string, unknown>;

  @CreateDateColumn()
  createdAt!: Date;
}
