import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { WeftConfig } from '../config/weft-config';
import { dataSourceOptions } from './data-source-options';
import { StoreOwnerService } from './store-owner.service';
import { LeaseSettings, openOwnedStore } from './store-ownership';

/**
 * The store; pending migrations run before anything else touches it. The service claims it (one
 * service per store: see store-ownership.ts) and keeps the claim; the command line's store
 * commands (keys, migrations) work on the file beside a running service and claim nothing.
 */
@Module({})
export class DatabaseModule {
  static forService(): DynamicModule {
    return {
      module: DatabaseModule,
      global: true,
      imports: [store(true)],
      providers: [StoreOwnerService],
      exports: [StoreOwnerService],
    };
  }

  static forTool(): DynamicModule {
    return { module: DatabaseModule, imports: [store(false)] };
  }
}

function store(claim: boolean): DynamicModule {
  // The lease, read with the options for the data source factory after it (which Nest hands only the options).
  let lease: LeaseSettings;
  return TypeOrmModule.forRootAsync({
    inject: [WeftConfig],
    useFactory: (config: WeftConfig) => {
      lease = leaseOf(config);
      return {
        ...dataSourceOptions(config.WEFT_DATABASE, config.WEFT_STORE_MAX_MB),
        migrationsRun: true,
        // A local file either opens or says why (in use, full, unreadable); only a lock held a
        // moment too long by another process on it is worth another try.
        retryAttempts: 3,
        retryDelay: 1_000,
        toRetry: (error: unknown) => String((error as { code?: unknown }).code ?? '').startsWith('SQLITE_BUSY'),
      };
    },
    dataSourceFactory: async (options) => {
      const dataSource = new DataSource(options!);
      return claim ? openOwnedStore(dataSource, String(options!.database), lease) : dataSource.initialize();
    },
  });
}

export function leaseOf(config: WeftConfig): LeaseSettings {
  return { leaseMs: config.WEFT_LEASE_MS, standby: config.WEFT_STANDBY === 'on' };
}
