/**
 * The one DataSource the TypeORM CLI uses (`npm run typeorm -- migration:run`, `migration:show`,
 * `migration:revert`). It reads the same WEFT_DATABASE setting as the service.
 */
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { DEFAULT_DATABASE } from '../config/weft-config';
import { dataSourceOptions } from './data-source-options';

export default new DataSource(dataSourceOptions(process.env.WEFT_DATABASE ?? DEFAULT_DATABASE));
