// Runs the part worker's TypeScript entry when the emulator runs from sources (tests). A build
// never uses this: its entry is compiled JavaScript (see part-threads.ts).
'use strict';
require('../../../../scripts/ts-register');
const { workerData } = require('node:worker_threads');
require(workerData.entry);
