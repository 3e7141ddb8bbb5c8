import { SyncEvents, type UsersChanged } from '@doable/contracts-sync';
import { LOGGER, type Logger } from '@doable/shared-logging';
import { Database } from '@doable/shared-runtime';
import { ServiceClient, TRANSPORT_OPTIONS, type TransportOptions } from '@doable/shared-transport';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { InProcessUsersMovedBarrier, NatsUsersMovedBarrier, type UsersMovedBarrier } from './users-moved-barrier';

export const GATEWAY_LEASE = Symbol('GATEWAY_LEASE');

/**
 * Every commit of this service that moved users' marks (it emitted users-changed) tells the
 * gateways before the work returns, so before any answer: see contracts-sync gateway-polls.ts.
 *
 * First, with a read replica, it records the commit's position as those users' read marks
 * (Database.markCommitted): a gateway told they moved forwards their next poll to sync, and
 * that read must then find the mark, or a replica that has not replayed the commit would answer
 * "nothing new" and the gateway would keep that answer until their next change.
 */
@Injectable()
export class UsersMovedObserver implements OnApplicationShutdown {
  private readonly barrier: UsersMovedBarrier;

  constructor(
    private readonly database: Database,
    services: ServiceClient,
    @Inject(TRANSPORT_OPTIONS) transport: TransportOptions,
    @Inject(GATEWAY_LEASE) leaseMs: number,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.barrier =
      transport.kind === 'in-process'
        ? new InProcessUsersMovedBarrier(services)
        : new NatsUsersMovedBarrier({ url: transport.url, subjectPrefix: transport.subjectPrefix, name: transport.name, leaseMs, logger });
    database.onCommitted(SyncEvents.usersChanged, (payloads) => this.moved(payloads));
  }

  private async moved(payloads: readonly UsersChanged[]): Promise<void> {
    const userIds = [...new Set(payloads.flatMap((payload) => payload.userIds))];
    await this.database.markCommitted(userIds);
    try {
      await this.barrier.moved(userIds);
    } catch (err) {
      // Committed all the same: a gateway that stayed silent for two leases while registered is
      // broken; failing the write would only make its client retry work that is done.
      this.logger.error({ err, users: userIds.length }, 'gateways not told of moved users; one may answer a stale "nothing new" until their next change');
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.barrier.close();
  }
}
