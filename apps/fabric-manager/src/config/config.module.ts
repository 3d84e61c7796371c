import { DynamicModule, Global, Module } from '@nestjs/common';
import { WeftConfig } from './weft-config';

/** Provides the validated WeftConfig everywhere. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: WeftConfig): DynamicModule {
    return { module: ConfigModule, providers: [{ provide: WeftConfig, useValue: config }], exports: [WeftConfig] };
  }
}
