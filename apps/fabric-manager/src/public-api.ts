/**
 * What other programs (the weft command) may use of the service without starting it, and without
 * loading NestJS, TypeORM or the fabric model: roles, where the store and fixtures are, the admin
 * key file, and the error a bad store location gives. Commands that work on the store file itself
 * load store-api.ts; nothing imports the service's modules by their paths.
 */
export { Role } from './auth/role';
export { adminKeyFile, readAdminKeyFile } from './auth/admin-key-file';
export { DEFAULT_DATABASE, FIXTURES_ROOT, StartupError } from './config/store-location';
export { renderVegaLiteSvg } from './plots/vega-lite-svg';
export { withoutPassword } from './database/dialect';
