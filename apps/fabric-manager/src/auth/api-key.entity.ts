import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Role } from './role';

export { Role };

/** An API key. Only a SHA-256 of its secret is stored; the key itself is shown once. */
@Entity('api_key')
export class ApiKey {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ type: 'varchar', length: 16 })
  role!: Role;

  /** Public part of the key (`weft_<prefix>_<secret>`), used to find the row. */
  @Index('UQ_api_key_prefix', { unique: true })
  @Column({ type: 'varchar', length: 16 })
  prefix!: string;

  @Column({ type: 'varchar', length: 64 })
  secretHash!: string;

  @CreateDateColumn()
  createdAt!: Date;

  @Column({ type: Date, nullable: true })
  lastUsedAt!: Date | null;

  @Column({ type: Date, nullable: true })
  revokedAt!: Date | null;
}
