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

  /** `required`: a process whose only work is consuming (PROCESS_ROLE=events) refuses to start with nothing to consume. */
  startConsumers(required = false): Promise<void> {
    if (required && this.consumers.count === 0) throw new Error('PROCESS_ROLE=events, but this service consumes no events: run it as `all` or `requests`');
    return this.consumers.start();
  }

  startRelay(): void {
    this.database?.relay.start();
  }

  /** Each part's stop is logged with its duration: the stop of a process is read from these lines. */
  async onApplicationShutdown(): Promise<void> {
    await this.step('outbox relay stopped', () => this.database?.relay.stop());
    await this.step('consumers stopped after their current message', () => this.consumers.stop());
    if (this.ownsBus) await this.step('event bus closed', () => this.bus.close().catch((err: unknown) => this.logger.warn({ err }, 'closing the event bus failed')));
    await this.step('request client closed', () => Promise.resolve(this.proxy.close()).catch(() => undefined));
    if (this.database?.readReplica) await this.step('read replica closed', () => this.database!.readReplica!.close());
    if (this.database?.dataSource.isInitialized) await this.step('database pool closed', () => this.database!.dataSource.destroy());
  }

  private async step(what: string, work: () => Promise<unknown> | undefined): Promise<void> {
    const started = Date.now();
    await work();
    this.logger.info({ ms: Date.now() - started }, `stop: ${what}`);
  }
}
