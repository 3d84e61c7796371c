import { Injectable, Logger, Optional } from '@nestjs/common';
import { StoreOwnerService } from '../database/store-owner.service';
import { InjectRepository } from '@nestjs/typeorm';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { IsNull, Repository } from 'typeorm';
import { ApiKey, Role } from './api-key.entity';
import { AuthErrorCode, AuthException } from './auth.exception';

/** lastUsedAt is kept to this precision: a busy client does not write the store on every request. */
const LAST_USED_PRECISION_MS = 60_000;

/** A key's row is read again after this long: a revocation made elsewhere (the CLI on the store
 * file) takes effect within it; one made through this service, at once. Every request reading the
 * row cost a store query, a tenth of a cheap request's time. */
const KEY_RECHECK_MS = 5_000;

const KEY_FORMAT = /^weft_([a-z0-9]{12})_([A-Za-z0-9_-]{43})$/;

export interface CreatedKey {
  apiKey: ApiKey;
  /** The full key; shown once and never stored. */
  key: string;
}

function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Issues, checks and revokes API keys. A key is `weft_<prefix>_<secret>`: the prefix finds the
 * row, the secret is compared with its stored SHA-256 in constant time (256-bit random secrets
 * need no slow hash). */
@Injectable()
export class ApiKeysService {
  private readonly logger = new Logger('ApiKeys');
  /** Rows of keys seen lately, by prefix, with when they were read. */
  private readonly recent = new Map<string, { row: ApiKey; readAt: number }>();
  constructor(
    @InjectRepository(ApiKey) private readonly keys: Repository<ApiKey>,
    @Optional() private readonly owner?: StoreOwnerService,
  ) {}

  async create(name: string, role: Role): Promise<CreatedKey> {
    const prefix = randomBytes(9)
      .toString('base64url')
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '0')
      .slice(0, 12);
    const secret = randomBytes(32).toString('base64url');
    const apiKey = await this.keys.save(this.keys.create({ name, role, prefix, secretHash: hashSecret(secret), lastUsedAt: null, revokedAt: null }));
    return { apiKey, key: `weft_${prefix}_${secret}` };
  }

  /** Creates the first admin key when the store has no key at all; returns it, or null. */
  async bootstrapAdmin(): Promise<CreatedKey | null> {
    if ((await this.keys.count()) > 0) return null;
    return this.create('bootstrap-admin', Role.admin);
  }

  async verify(key: string | undefined): Promise<ApiKey> {
    if (!key) throw new AuthException(AuthErrorCode.KeyMissing, 'an API key is required: send "Authorization: Bearer weft_…"');
    const match = KEY_FORMAT.exec(key);
    if (!match) throw new AuthException(AuthErrorCode.KeyInvalid, 'the API key is not a weft key');
    const row = await this.row(match[1]);
    const expected = Buffer.from(row?.secretHash ?? '0'.repeat(64), 'hex');
    const actual = Buffer.from(hashSecret(match[2]), 'hex');
    if (!row || !timingSafeEqual(expected, actual)) throw new AuthException(AuthErrorCode.KeyInvalid, 'the API key is not valid');
    if (row.revokedAt) throw new AuthException(AuthErrorCode.KeyRevoked, 'the API key has been revoked');
    await this.noteUse(row);
    return row;
  }

  private async row(prefix: string): Promise<ApiKey | null> {
    const now = Date.now();
    const seen = this.recent.get(prefix);
    if (seen && now - seen.readAt < KEY_RECHECK_MS) return seen.row;
    const row = await this.keys.findOne({ where: { prefix } });
    if (row) this.recent.set(prefix, { row, readAt: now });
    else this.recent.delete(prefix);
    return row;
  }

  /** Records when a key was last used, at most once a minute. A read must not depend on a write:
   * when the store cannot take it (full), the request goes on and the time is kept next time. */
  private async noteUse(row: ApiKey): Promise<void> {
    const now = new Date();
    if (row.lastUsedAt && now.getTime() - row.lastUsedAt.getTime() < LAST_USED_PRECISION_MS) return;
    // A standby writes nothing: the active manager keeps the time of the key's next use.
    if (this.owner && this.owner.role() !== 'active') return;
    try {
      await this.keys.update(row.id, { lastUsedAt: now });
      row.lastUsedAt = now;
    } catch (error) {
      this.logger.warn({ err: error, key: row.prefix }, 'could not record when the key was used');
    }
  }

  list(): Promise<ApiKey[]> {
    return this.keys.find({ order: { id: 'ASC' } });
  }

  async revoke(id: number): Promise<ApiKey> {
    const row = await this.keys.findOne({ where: { id, revokedAt: IsNull() } });
    if (!row) throw new AuthException(AuthErrorCode.KeyNotFound, `no active API key with id ${id}`);
    row.revokedAt = new Date();
    const saved = await this.keys.save(row);
    this.recent.delete(row.prefix);
    return saved;
  }
}
