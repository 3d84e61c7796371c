/**
 * What the weft command's store commands (keys, migrate) use of the service: its configuration,
 * its store and the services that write keys and the audit log, to build a module of their own on
 * the store file. Loading this loads NestJS and TypeORM (about a second); public-api.ts does not.
 */
export { AuditService } from './audit/audit.service';
export { ApiKeysService } from './auth/api-keys.service';
export { AuthModule } from './auth/auth.module';
export { ConfigModule } from './config/config.module';
export { loadWeftConfig, WeftConfig } from './config/weft-config';
export { dataSourceOptions } from './database/data-source-options';
export { DatabaseModule } from './database/database.module';
export { termRefusal } from './database/lease-term';
