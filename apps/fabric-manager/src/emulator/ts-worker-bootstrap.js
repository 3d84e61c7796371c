// Runs a TypeScript worker entry when the service itself runs from sources (tests, `nest start
// --watch`). The built service never uses this; its worker entry is compiled JavaScript.
'use strict';
require('../../../../scripts/ts-register');
const { workerData } = require('node:worker_threads');
require(workerData.entry);
