import { DynamicModule, Module } from '@nestjs/common';
import { AuthModule } from '../../fabric-manager/src/auth/auth.module';
import { ConfigModule } from '../../fabric-manager/src/config/config.module';
import { WeftConfig } from '../../fabric-manager/src/config/weft-config';
import { DatabaseModule } from '../../fabric-manager/src/database/database.module';

/** The store alone, for commands that work on the database file directly (keys, migrations). */
@Module({})
export class CliStoreModule {
  static forRoot(config: WeftConfig): DynamicModule {
    return { module: CliStoreModule, imports: [ConfigModule.forRoot(config), DatabaseModule.forTool(), AuthModule] };
  }
}
