import { ApolloDriver, ApolloDriverConfig } from '@nestjs/apollo';
import { DynamicModule, Module, ValidationPipe } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { GraphQLModule } from '@nestjs/graphql';
import { LoggerModule } from 'nestjs-pino';
import { AutomationModule } from './automation/automation.module';
import { AuditInterceptor } from './audit/audit.interceptor';
import { AuditModule } from './audit/audit.module';
import { ChipNamesModule } from './chip-names/chip-names.module';
import { AuditResolver } from './audit/audit.resolver';
import { ApiKeysService } from './auth/api-keys.service';
import { AuthModule } from './auth/auth.module';
import { ConfigModule } from './config/config.module';
import { ConsoleModule } from './console/console.module';
import { ControlModule } from './control/control.module';
import { WeftConfig } from './config/weft-config';
import { DatabaseModule } from './database/database.module';
import { EmulatorModule } from './emulator/emulator.module';
import { EventsModule } from './events/events.module';
import { FabricsModule } from './fabrics/fabrics.module';
import { FaultsModule } from './faults/faults.module';
import { graphqlConfig } from './graphql/graphql.config';
import { GraphQLExceptionFilter } from './graphql/graphql-exception.filter';
import { DrillsModule } from './drills/drills.module';
import { HealthModule } from './health/health.module';
import { TrafficModule } from './traffic/traffic.module';
import { StudiesModule } from './studies/studies.module';
import { MetricsModule } from './metrics/metrics.module';
import { MetricsService } from './metrics/metrics.service';

@Module({})
export class AppModule {
  static forRoot(config: WeftConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggerModule.forRoot({
          pinoHttp: {
            level: config.WEFT_LOG_LEVEL,
            // GraphQL over HTTP logs one line per request; health probes are not worth a line.
            autoLogging: { ignore: (req) => req.url === '/health' },
            redact: ['req.headers.authorization'],
            // A line per request says who asked what and how it went; the whole header set, which
            // pino-http logs by default, cost a tenth of a cheap query's time to serialise.
            serializers: {
              req: (req: { id: unknown; method: string; url: string; remoteAddress?: string }) => ({
                id: req.id,
                method: req.method,
                url: req.url,
                remoteAddress: req.remoteAddress,
              }),
              res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
            },
          },
        }),
        DatabaseModule.forService(),
        ChipNamesModule,
        AuthModule,
        AuditModule,
        EmulatorModule,
        EventsModule,
        FabricsModule,
        ControlModule,
        ConsoleModule,
        MetricsModule,
        AutomationModule,
        TrafficModule,
        StudiesModule,
        DrillsModule,
        FaultsModule,
        HealthModule,
        GraphQLModule.forRootAsync<ApolloDriverConfig>({
          driver: ApolloDriver,
          imports: [AuthModule, MetricsModule],
          inject: [WeftConfig, ApiKeysService, MetricsService],
          useFactory: graphqlConfig,
        }),
      ],
      providers: [
        AuditResolver,
        { provide: APP_PIPE, useValue: new ValidationPipe({ transform: true, whitelist: true, forbidUnknownValues: false, stopAtFirstError: false }) },
        { provide: APP_FILTER, useClass: GraphQLExceptionFilter },
        { provide: APP_INTERCEPTOR, useClass: AuditInterceptor },
      ],
    };
  }
}
