import type { DataSource } from 'typeorm';
import { databaseOf, withoutPassword } from './dialect';

describe('a URL as it may be logged', () => {
  it('leaves out the password of a PostgreSQL or Redis URL and nothing else', () => {
    expect(withoutPassword('postgres://weft:s3cret@db.example:5432/weft')).toBe('postgres://weft:…@db.example:5432/weft');
    expect(withoutPassword('redis://:s3cret@127.0.0.1:6379/0')).toBe('redis://:…@127.0.0.1:6379/0');
    expect(withoutPassword('rediss://user:p%40ss@cache:6380')).toBe('rediss://user:…@cache:6380');
    expect(withoutPassword('postgres://weft@127.0.0.1/weft')).toBe('postgres://weft@127.0.0.1/weft');
    expect(withoutPassword('./data/weft.sqlite')).toBe('./data/weft.sqlite');
  });
});

describe('where a data source’s store is', () => {
  it('is its PostgreSQL URL, or its SQLite file', () => {
    expect(databaseOf({ options: { type: 'postgres', url: 'postgres://weft@127.0.0.1/weft' } } as unknown as DataSource)).toBe(
      'postgres://weft@127.0.0.1/weft',
    );
    expect(databaseOf({ options: { type: 'better-sqlite3', database: 'data/weft.sqlite' } } as unknown as DataSource)).toBe('data/weft.sqlite');
  });
});
