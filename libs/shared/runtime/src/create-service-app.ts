import { type Logger, PinoNestLogger } from '@doable/shared-logging';
import { createServerStrategy } from '@doable/shared-transport';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { z } from 'zod';
import { ServiceKernelModule, type ServiceInfrastructure } from './kernel/kernel.module';
import { MessagingLifecycle } from './kernel/messaging-lifecycle';
import { HttpDrain } from './stop/http-drain';
import type { Stoppable } from './stop/stop-sequence';
import { StoppingState } from './stop/stopping-state';
import type { ServiceConfig } from './service/service-config';
import type { ServiceDefinition } from './service/service-definition';

/** A service assembled but not yet serving; the caller decides when each part starts. */
export interface ServiceApp extends Stoppable {
  readonly name: string;
  readonly app: INestApplication;
  /** Subscribes the service's message handlers and event consumers, as far as its PROCESS_ROLE says. */
  startMessaging(): Promise<void>;
  /** Starts relaying the outbox (embedded mode starts it only after every consumer exists). */
  startRelay(): void;
  listen(): Promise<string>;
  /**
   * Ends HTTP keep-alive connections after their current answer (HttpDrain), then closes the
   * app: push sockets (1001), the HTTP server, message handlers, consumers, pools.
   */
  close(): Promise<void>;
}

export async function createServiceApp<Env extends z.ZodObject>(
  definition: ServiceDefinition<Env>,
  config: ServiceConfig<Env>,
  infrastructure: ServiceInfrastructure,
  logger: Logger,
): Promise<ServiceApp> {
  // A module class of its own per app, so several services can share one process.
  const root = { module: class ServiceRootModule {}, imports: [ServiceKernelModule.forRoot({ definition: definition, config, infrastructure, logger }), ...definition.imports(config)] };
  Object.defineProperty(root.module, 'name', { value: `${definition.name.replace(/-./g, (m) => m[1].toUpperCase())}RootModule` });
  const options = { logger: new PinoNestLogger(logger), abortOnError: false, bodyParser: !definition.configureHttp };
  const adapter = definition.httpAdapter?.(config);
  const app = adapter
    ? await NestFactory.create(root, adapter as Parameters<typeof NestFactory.create>[1] & object, options)
    : await NestFactory.create(root, options);
  definition.configureHttp?.(app, config);
  app.connectMicroservice({ strategy: createServerStrategy(infrastructure.transport, definition.name) }, { inheritAppConfig: false });
  const drain = new HttpDrain(app.getHttpServer() as import('node:http').Server);
  await app.init();
  const lifecycle = app.get(MessagingLifecycle);
  const stopping = app.get(StoppingState);
  return {
    name: definition.name,
    app,
    async startMessaging() {
      const role = config.PROCESS_ROLE ?? 'all';
      // An events process registers its handlers (the module built them) but subscribes none, so
      // NATS never routes it a request; a requests process leaves the durable consumers to it.
      if (role !== 'events') await app.startAllMicroservices();
      if (role !== 'requests') await lifecycle.startConsumers(role === 'events');
    },
    startRelay: () => lifecycle.startRelay(),
    async listen() {
      await app.listen(config.PORT, config.HOST);
      const address = (app.getHttpServer() as import('node:http').Server).address();
      const port = address && typeof address === 'object' ? address.port : config.PORT;
      return `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${port}`;
    },
    markStopping: () => stopping.markStopping(),
    async close() {
      stopping.markStopping();
      const started = Date.now();
      void drain.stop().then(() => logger.info({ ms: Date.now() - started }, 'stop: every HTTP connection ended'));
      await app.close();
    },
    stillOpen: () => ({ httpConnections: drain.openConnections, requestsInFlight: drain.requestsInFlight }),
    forceClose: () => drain.forceClose(),
  };
}
