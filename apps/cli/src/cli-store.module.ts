import { DynamicModule, Module } from '@nestjs/common';
import { AuthModule, ConfigModule, DatabaseModule, WeftConfig } from '../../fabric-manager/src/store-api';

/** The store alone, for commands that work on the database file directly (keys, migrations). */
@Module({})
export class CliStoreModule {
  static forRoot(config: WeftConfig): DynamicModule {
    return { module: CliStoreModule, imports: [ConfigModule.forRoot(config), DatabaseModule.forTool(), AuthModule] };
  }
}
