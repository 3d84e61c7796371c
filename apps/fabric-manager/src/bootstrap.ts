import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { writeAdminKeyFile } from './auth/admin-key-file';
import { ApiKeysService, CreatedKey } from './auth/api-keys.service';
import { WeftConfig } from './config/weft-config';
import { ControlService } from './control/control.service';
import { ManagerRole, StoreOwnerService } from './database/store-owner.service';
import { FabricsService } from './fabrics/fabrics.service';
import { httpErrorHandler } from './graphql/http-errors';
import { listenWithAcceptors } from './http/acceptors';
import { mountConsole } from './console/console-assets';

export interface StartedService {
  app: NestExpressApplication;
  url: string;
  /** The first admin key, when this start created it, and the file it was saved to. */
  bootstrapKey: CreatedKey | null;
  bootstrapKeyFile: string | null;
  defaultFabric: string | null;
  /** Said at start when the store cannot be written (full): the service serves reads meanwhile. */
  storeWarning: string | null;
  /** `standby`: another manager holds the store; this one serves reads and takes over if its lease lapses. */
  role: ManagerRole;
}

/**
 * Starts the service: migrations, the first admin key on an empty store, the default fixture when
 * the store holds no fabric, then HTTP and WebSocket on the configured port.
 */
export async function startService(config: WeftConfig, options: { logger?: boolean } = {}): Promise<StartedService> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    bufferLogs: true,
    logger: options.logger === false ? false : undefined,
    // A refused start (the store in use, a full disk) reaches the caller, which says why and exits.
    abortOnError: false,
  });
  if (options.logger !== false) app.useLogger(app.get(Logger));
  // An inline installation may be a few megabytes of JSON.
  app.useBodyParser('json', { limit: '5mb' });
  app.enableShutdownHooks();
  mountConsole(app);
  await app.init();
  app.use(httpErrorHandler);

  const owner = app.get(StoreOwnerService);
  const role = owner.role();
  const store = role === 'standby' ? { writable: false } : await owner.writability();
  const storeWarning =
    store.writable || role === 'standby'
      ? null
      : `${store.reason}: reads work, every write is refused as STORE_FULL until space is freed (or WEFT_STORE_MAX_MB raised)`;
  const bootstrapKey = store.writable ? await app.get(ApiKeysService).bootstrapAdmin() : null;
  const bootstrapKeyFile = bootstrapKey && config.WEFT_DATABASE !== ':memory:' ? writeAdminKeyFile(config.WEFT_DATABASE, bootstrapKey.key) : null;
  let defaultFabric: string | null = null;
  const fabrics = app.get(FabricsService);
  if (store.writable && config.WEFT_DEFAULT_FIXTURE !== 'none' && (await fabrics.count()) === 0) {
    const fabric = await fabrics.load(fabrics.readInstallation({ fixture: config.WEFT_DEFAULT_FIXTURE }));
    // Discovered, configured and pushed at once, so that the fabric routes (and heals) from the start.
    const configured = await app.get(ControlService).configure(fabric.id, { trigger: 'first start' });
    defaultFabric = `${fabric.name} (discovered, configured: generation ${configured.generation.number} ${configured.generation.state}, ${configured.writes} register writes)`;
  }
  try {
    // Nest hands the options to the HTTP server's listen() as they are.
    const listening = await listenWithAcceptors(
      app.getHttpServer(),
      (options) => app.listen(options as never),
      config.WEFT_PORT,
      config.WEFT_HOST,
      config.WEFT_HTTP_ACCEPTORS,
    );
    if (listening < config.WEFT_HTTP_ACCEPTORS)
      app
        .get(Logger)
        .warn(
          `accepting connections on 1 socket, not WEFT_HTTP_ACCEPTORS=${config.WEFT_HTTP_ACCEPTORS}: Node ${process.versions.node} cannot share a port between sockets (Node 22.12 can)`,
        );
  } catch (error) {
    // The port is taken: the store, the emulators and the automation stop as at any shutdown.
    await app.close();
    throw error;
  }
  const address = app.getHttpServer().address() as { port: number };
  const host = config.WEFT_HOST === '0.0.0.0' || config.WEFT_HOST === '::' ? 'localhost' : config.WEFT_HOST;
  const url = `http://${host}:${address.port}`;
  // Where writes go, for a standby to name (and its own, should it take over).
  await owner.announce(url);
  return { app, url, bootstrapKey, bootstrapKeyFile, defaultFabric, storeWarning, role };
}
