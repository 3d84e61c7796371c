// Lets Node run the service's TypeScript sources directly (tests, `nest start --watch`): compiles
// .ts files on load with SWC and resolves the @weft/* path aliases. The built service never uses
// this. Use it with `node -r ./scripts/ts-register.js apps/fabric-manager/src/main.ts`.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');
const { transformSync } = require('@swc/core');

const root = path.resolve(__dirname, '..');
const originalResolve = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  const alias = /^@weft\/(fabric-model|emulator|control)(\/.*)?$/.exec(request);
  if (alias) request = path.join(root, 'libs', alias[1], 'src', alias[2] ?? '');
  return originalResolve.call(this, request, parent, ...rest);
};
require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    jsc: { parser: { syntax: 'typescript', decorators: true }, target: 'es2022', transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false } },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};
