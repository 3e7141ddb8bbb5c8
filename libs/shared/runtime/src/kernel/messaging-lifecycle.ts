import { LOGGER, type Logger } from '@doable/shared-logging';
import { EVENT_BUS, type EventBus } from '@doable/shared-transport';
import { Inject, Injectable, type OnApplicationShutdown, Optional } from '@nestjs/common';
import type { ClientProxy } from '@nestjs/microservices';
import { Database } from '../service/database';
import { EventConsumers } from './event-consumers';
import { RPC_PROXY } from '../service/tokens';

export const OWNS_EVENT_BUS = Symbol('OWNS_EVENT_BUS');

/**
 * Starts a service's event consumers and outbox relay once the app is up, and stops
 * everything in the reverse order on shutdown, so no message is handled by a half-closed app.
 */
@Injectable()
export class MessagingLifecycle implements OnApplicationShutdown {
  constructor(
    private readonly consumers: EventConsumers,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(OWNS_EVENT_BUS) private readonly ownsBus: boolean,
    @Inject(RPC_PROXY) private readonly proxy: ClientProxy,
    @Inject(LOGGER) private readonly logger: Logger,
    @Optional() private readonly database?: Database,
  ) {}

  startConsumers(): Promise<void> {
    return this.consumers.start();
  }

  startRelay(): void {
    this.database?.relay.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.database?.relay.stop();
    await this.consumers.stop();
    if (this.ownsBus) await this.bus.close().catch((err: unknown) => this.logger.warn({ err }, 'closing the event bus failed'));
    await Promise.resolve(this.proxy.close()).catch(() => undefined);
    if (this.database?.dataSource.isInitialized) await this.database.dataSource.destroy();
  }
}
