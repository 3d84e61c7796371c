import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** Who did what, when, and how it ended: one row per mutation (and per CLI action). */
@Entity('audit_entry')
@Index('IDX_audit_at', ['at'])
export class AuditEntry {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer', nullable: true })
  apiKeyId!: number | null;

  /** Key name and role, or `cli` / `system`. */
  @Column({ type: 'varchar', length: 200 })
  actor!: string;

  /** The mutation or command, e.g. `loadFabric`. */
  @Column({ type: 'varchar', length: 100 })
  action!: string;

  /** Arguments with secrets removed. */
  @Column({ type: 'simple-json' })
  arguments!: Record<string, unknown>;

  /** `ok` or the error code. */
  @Column({ type: 'varchar', length: 40 })
  outcome!: string;

  @CreateDateColumn()
  at!: Date;
}
