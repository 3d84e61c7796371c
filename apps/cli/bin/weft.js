#!/usr/bin/env node
// The `weft` command. Runs the compiled CLI, building the project first when the build is missing
// or older than the sources, so `npx weft <command>` works right after `npm ci`.
'use strict';
const { execFileSync } = require('node:child_process');
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..', '..', '..');
const entry = join(root, 'dist', 'apps', 'cli', 'src', 'main.js');

function newestSource(dir) {
  let newest = 0;
  for (const item of readdirSync(dir, { withFileTypes: true })) {
    if (item.name === 'node_modules' || item.name.startsWith('.')) continue;
    const path = join(dir, item.name);
    if (item.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (item.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function stale() {
  if (!existsSync(entry)) return true;
  const built = statSync(entry).mtimeMs;
  return ['apps', 'libs', 'migrations'].some((d) => newestSource(join(root, d)) > built);
}

if (stale()) {
  process.stderr.write('weft: building (first run or sources changed)…\n');
  execFileSync(process.execPath, [require.resolve('@nestjs/cli/bin/nest.js', { paths: [root] }), 'build', 'fabric-manager'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
// Output piped into a reader that stops early (`weft routes show … | head`): the rest is not
// wanted, which is not an error.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});
const { runCli } = require(entry);
runCli(process.argv).then((code) => {
  if (code !== 0) process.exitCode = code;
});
