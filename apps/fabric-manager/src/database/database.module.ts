import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WeftConfig } from '../config/weft-config';
import { dataSourceOptions } from './data-source-options';

/** The store; pending migrations run before the service accepts requests. */
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [WeftConfig],
      useFactory: (config: WeftConfig) => ({ ...dataSourceOptions(config.WEFT_DATABASE), migrationsRun: true }),
    }),
  ],
})
export class DatabaseModule {}
