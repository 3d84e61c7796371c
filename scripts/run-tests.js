#!/usr/bin/env node
// `npm test`'s test run: the unit, system and end-to-end projects on SQLite, then the store-backed tier
// again on PostgreSQL — one after the other, so that the second does not load the machine under
// the first's timing-sensitive drills (a drill charges the control plane's CPU time to emulated
// time). Jest's JSON results of both are merged into dist/jest-results.json, which CI summarises.
// package.json sets Jest's workerIdleMemoryLimit: with one worker on 2 cores Jest would otherwise run
// every suite in band, in its own process: one heap for all 150 suites, and a drill late in the run was
// charged several times the CPU for its reactions (garbage collection of what the suites before it
// left); a worker is restarted once its heap passes 1 GB.
const { spawnSync } = require('node:child_process');
const { readFileSync, writeFileSync, existsSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const jest = join(root, 'node_modules', 'jest', 'bin', 'jest.js');
const runs = [
  { projects: ['unit', 'system', 'e2e'], output: 'dist/jest-results-sqlite.json' },
  { projects: ['e2e-postgres'], output: 'dist/jest-results-postgres.json' },
];

let failed = false;
for (const run of runs) {
  const args = [jest, '--selectProjects', ...run.projects, '--json', `--outputFile=${run.output}`, ...process.argv.slice(2)];
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) failed = true;
}

// One summary for CI: the counts added up, the suites and tests listed together.
const parts = runs.map((r) => join(root, r.output)).filter(existsSync).map((file) => JSON.parse(readFileSync(file, 'utf8')));
const sum = (key) => parts.reduce((n, p) => n + (p[key] || 0), 0);
const merged = {
  success: !failed && parts.length === runs.length && parts.every((p) => p.success),
  numTotalTests: sum('numTotalTests'),
  numPassedTests: sum('numPassedTests'),
  numFailedTests: sum('numFailedTests'),
  numPendingTests: sum('numPendingTests'),
  numTotalTestSuites: sum('numTotalTestSuites'),
  numPassedTestSuites: sum('numPassedTestSuites'),
  numFailedTestSuites: sum('numFailedTestSuites'),
  numRuntimeErrorTestSuites: sum('numRuntimeErrorTestSuites') + (runs.length - parts.length),
  testResults: parts.flatMap((p) => p.testResults || []),
};
writeFileSync(join(root, 'dist/jest-results.json'), JSON.stringify(merged));
process.exit(merged.success ? 0 : 1);
