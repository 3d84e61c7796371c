import { Repository } from 'typeorm';
import { ApiKey, Role } from './api-key.entity';
import { ApiKeysService } from './api-keys.service';
import { AuthErrorCode } from './auth.exception';

describe('ApiKeysService', () => {
  let rows: ApiKey[];
  let sut: ApiKeysService;
  let update: jest.Mock;

  beforeEach(() => {
    rows = [];
    const repository = {
      create: (fields: Partial<ApiKey>) => ({ ...fields }) as ApiKey,
      save: async (row: ApiKey) => {
        if (!row.id) {
          row.id = rows.length + 1;
          rows.push(row);
        }
        return row;
      },
      findOne: async ({ where }: { where: Partial<ApiKey> }) => rows.find((r) => (where.prefix ? r.prefix === where.prefix : r.id === where.id)) ?? null,
      update: (update = jest.fn(async () => undefined)),
      count: async () => rows.length,
    };
    sut = new ApiKeysService(repository as unknown as Repository<ApiKey>);
  });

  it('stores a hash, never the key, and accepts the key it printed', async () => {
    const { key, apiKey } = await sut.create('automation', Role.operator);
    // weft_<12-character prefix>_<secret>; the secret is base64url and may itself contain '_'.
    const secret = key.slice('weft_'.length + 13);
    expect(secret).toHaveLength(43);
    expect(JSON.stringify(rows)).not.toContain(secret);
    await expect(sut.verify(key)).resolves.toBe(apiKey);
  });

  it('records when a key was used at most once a minute, not on every request', async () => {
    const { key } = await sut.create('automation', Role.operator);
    for (let i = 0; i < 5; i++) await sut.verify(key);
    expect(update).toHaveBeenCalledTimes(1);
  });

  it('accepts a valid key when the store cannot record its use (a full store)', async () => {
    const { key, apiKey } = await sut.create('viewer', Role.viewer);
    update.mockRejectedValue(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }));
    await expect(sut.verify(key)).resolves.toBe(apiKey);
    expect(apiKey.lastUsedAt).toBeNull();
  });

  it('creates the bootstrap admin only on an empty store', async () => {
    expect((await sut.bootstrapAdmin())!.apiKey.role).toBe(Role.admin);
    expect(await sut.bootstrapAdmin()).toBeNull();
  });

  it.each([
    ['no key', undefined, AuthErrorCode.KeyMissing],
    ['not a weft key', 'hunter2', AuthErrorCode.KeyInvalid],
    ['an unknown prefix', `weft_${'a'.repeat(12)}_${'b'.repeat(43)}`, AuthErrorCode.KeyInvalid],
  ])('refuses %s', async (_case, key, code) => {
    await expect(sut.verify(key)).rejects.toMatchObject({ code });
  });

  it('refuses a right prefix with a wrong secret, and a revoked key', async () => {
    const { key, apiKey } = await sut.create('ops', Role.operator);
    const [, prefix] = key.split('_');
    await expect(sut.verify(`weft_${prefix}_${'c'.repeat(43)}`)).rejects.toMatchObject({ code: AuthErrorCode.KeyInvalid });
    apiKey.revokedAt = new Date();
    await expect(sut.verify(key)).rejects.toMatchObject({ code: AuthErrorCode.KeyRevoked });
  });

  it("reads a key's row again after a few seconds, so that a revocation made on the store file elsewhere takes effect", async () => {
    jest.useFakeTimers({ now: new Date('2026-11-25T12:00:00Z'), doNotFake: ['nextTick', 'setImmediate'] });
    try {
      const { key, apiKey } = await sut.create('desk', Role.operator);
      await sut.verify(key);
      // The CLI revokes it in the store file: another object than the one this service read.
      const index = rows.indexOf(apiKey);
      rows[index] = { ...apiKey, revokedAt: new Date() };
      await expect(sut.verify(key)).resolves.toBeDefined();
      jest.advanceTimersByTime(5_001);
      await expect(sut.verify(key)).rejects.toMatchObject({ code: AuthErrorCode.KeyRevoked });
    } finally {
      jest.useRealTimers();
    }
  });
});
