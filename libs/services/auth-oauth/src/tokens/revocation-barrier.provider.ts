import { LOGGER, type Logger } from '@doable/shared-logging';
import { ServiceClient, TRANSPORT_OPTIONS, type TransportOptions } from '@doable/shared-transport';
import { Inject, Injectable, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import { InProcessRevocationBarrier, NatsRevocationBarrier, REVOCATION_BARRIER, type RevocationBarrier } from './revocation-barrier';

export const REVOCATION_LEASE = Symbol('REVOCATION_LEASE');

/** The barrier for this transport: the in-process gateway, or every gateway registered in NATS KV. */
export const revocationBarrierProvider: Provider = {
  provide: REVOCATION_BARRIER,
  inject: [TRANSPORT_OPTIONS, ServiceClient, LOGGER, REVOCATION_LEASE],
  useFactory: (transport: TransportOptions, services: ServiceClient, logger: Logger, leaseMs: number): RevocationBarrier =>
    transport.kind === 'in-process'
      ? new InProcessRevocationBarrier(services)
      : new NatsRevocationBarrier({ url: transport.url, subjectPrefix: transport.subjectPrefix, name: transport.name, leaseMs, logger }),
};

/** Closes the barrier's own NATS connection with the service. */
@Injectable()
export class RevocationBarrierCloser implements OnApplicationShutdown {
  constructor(@Inject(REVOCATION_BARRIER) private readonly barrier: RevocationBarrier) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.barrier instanceof NatsRevocationBarrier) await this.barrier.close();
  }
}
