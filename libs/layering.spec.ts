import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Every TypeScript source under `dir` (specs included: they run in the same room). */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((item) => {
    const path = join(dir, item.name);
    if (item.isDirectory()) return sources(path);
    return item.name.endsWith('.ts') ? [path] : [];
  });
}

/** The files under `lib` that import one of `forbidden`, with the import. */
function importsOf(lib: string, forbidden: readonly string[]): string[] {
  const root = join(__dirname, lib, 'src');
  return sources(root).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/from '(@weft\/[\w-]+)[^']*'/g)]
      .filter((m) => forbidden.includes(m[1]))
      .map((m) => `${relative(__dirname, file)} imports ${m[1]}`),
  );
}

describe('the libraries keep to their rooms (DESIGN.md: the control plane sees the fabric only through the maintenance transport)', () => {
  it('the emulator imports nothing of the control plane: the transport it implements is defined beside the datasheets', () => {
    expect(importsOf('emulator', ['@weft/control'])).toEqual([]);
  });

  it('the fabric model, datasheets and transport import neither the emulator nor the control plane', () => {
    expect(importsOf('fabric-model', ['@weft/control', '@weft/emulator'])).toEqual([]);
  });
});
