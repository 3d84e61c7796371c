import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The service's files the weft command may import: its public API, its store API, the worker's API, and its entry point. */
const ALLOWED = new Set(['public-api', 'store-api', 'worker-api', 'main']);

describe('the weft command', () => {
  it('uses the service only through its public API, never its modules by their paths', () => {
    const reaches: string[] = [];
    for (const file of readdirSync(__dirname).filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'))) {
      for (const m of readFileSync(join(__dirname, file), 'utf8').matchAll(/(?:from |import\()'\.\.\/\.\.\/fabric-manager\/src\/([^']+)'/g)) {
        if (!ALLOWED.has(m[1])) reaches.push(`${file} imports fabric-manager/src/${m[1]}`);
      }
    }
    expect(reaches).toEqual([]);
  });
});
