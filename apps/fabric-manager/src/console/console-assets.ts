import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The console and the GraphQL explorer, as `npm run build` bundles them (apps/console, vite) into
 * dist/console: served by the service itself at `/` and, to a browser, at `/graphql` — nothing
 * from outside the machine (issue 39). The folder is found from the repository root, for the
 * built service and the tests alike.
 */
export function consoleAssetsDir(): string {
  let dir = __dirname;
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'weft') return join(dir, 'dist', 'console');
    const up = dirname(dir);
    if (up === dir) return join(process.cwd(), 'dist', 'console');
    dir = up;
  }
}

const NOT_BUILT = 'the console is not built: run "npm run build" (npm start does it)\n';

/** A browser's GET of /graphql (asking for HTML, no query) gets the explorer; everything else goes on to the API. */
function explorerFor(dir: string) {
  const page = join(dir, 'explorer.html');
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' || req.query.query !== undefined || req.accepts(['application/json', 'text/html']) !== 'text/html') return next();
    if (!existsSync(page)) return res.status(503).type('text/plain').send(NOT_BUILT);
    res.sendFile(page);
  };
}

/** Mounts the console's files and the explorer ahead of the GraphQL endpoint (before app.init). */
export function mountConsole(app: NestExpressApplication): void {
  const dir = consoleAssetsDir();
  app.use('/graphql', explorerFor(dir));
  app.useStaticAssets(dir, { index: 'index.html', fallthrough: true });
  app.use('/', (req: Request, res: Response, next: NextFunction) => {
    if (req.method === 'GET' && req.path === '/' && !existsSync(join(dir, 'index.html'))) return res.status(503).type('text/plain').send(NOT_BUILT);
    next();
  });
}
