import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { MoreThan, Repository } from 'typeorm';
import type { ApiKey } from '../auth/api-key.entity';
import { PageArgs, Connection, decodeCursor, toConnection } from '../graphql/pagination';
import { AuditEntry } from './audit-entry.entity';

const MAX_ARGUMENT_TEXT = 200;

/** Arguments as they are worth keeping: long texts (an inline installation) shortened. */
export function redactArguments(value: unknown): unknown {
  if (typeof value === 'string') return value.length > MAX_ARGUMENT_TEXT ? `${value.slice(0, MAX_ARGUMENT_TEXT)}… (${value.length} chars)` : value;
  if (Array.isArray(value)) return value.slice(0, 50).map(redactArguments);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = /key|secret|password|token/i.test(k) && typeof v === 'string' ? '[redacted]' : redactArguments(v);
    return out;
  }
  return value;
}

@Injectable()
export class AuditService {
  private readonly logger = new Logger('Audit');

  constructor(@InjectRepository(AuditEntry) private readonly entries: Repository<AuditEntry>) {}

  async record(apiKey: ApiKey | null | undefined, action: string, args: Record<string, unknown>, outcome: string, actor?: string): Promise<void> {
    await this.entries.save(
      this.entries.create({
        apiKeyId: apiKey?.id ?? null,
        actor: actor ?? (apiKey ? `${apiKey.name} (${apiKey.role})` : 'anonymous'),
        action,
        arguments: redactArguments(args) as Record<string, unknown>,
        outcome,
      }),
    );
  }

  /** Records an entry; where the store cannot take it (full), the entry goes to the service log
   * instead, and the operation's own outcome — done, or refused — is what its caller hears. */
  async recordOrLog(apiKey: ApiKey | null | undefined, action: string, args: Record<string, unknown>, outcome: string): Promise<void> {
    try {
      await this.record(apiKey, action, args, outcome);
    } catch (error) {
      this.logger.error(
        { err: error, audit: { apiKeyId: apiKey?.id ?? null, action, arguments: redactArguments(args), outcome } },
        'the audit entry could not be stored; it is kept in this log line',
      );
    }
  }

  async page(args: PageArgs): Promise<Connection<AuditEntry>> {
    const after = decodeCursor(args.after);
    const [rows, total] = await Promise.all([
      this.entries.find({ where: { id: MoreThan(after) }, order: { id: 'ASC' }, take: args.first + 1 }),
      this.entries.count(),
    ]);
    return toConnection(rows, args.first, total);
  }
}
