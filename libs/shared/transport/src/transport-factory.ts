import type { Logger } from '@doable/shared-logging';
import type { ClientProxy, CustomTransportStrategy } from '@nestjs/microservices';
import type { EventBus } from './events/event-bus';
import { InProcessEventBus } from './events/in-process-event-bus';
import { JetStreamEventBus } from './events/jetstream-event-bus';
import { InProcessClient } from './in-process/in-process.client';
import { InProcessServer } from './in-process/in-process.server';
import { natsServers } from './nats/nats-servers';
import { PrefixedNatsClient } from './nats/prefixed-nats.client';
import { PrefixedNatsServer } from './nats/prefixed-nats.server';
import { replicaId } from './nats/replica-beats';
import { ReplyDeserializer } from './nats/reply.deserializer';
import { ReplySerializer } from './nats/reply.serializer';
import { streamNameFor, type TransportOptions } from './transport-options';

/** The one place that turns transport configuration into Nest strategies, clients and the event bus. */
export function createServerStrategy(options: TransportOptions, queue: string): CustomTransportStrategy {
  if (options.kind === 'in-process') return new InProcessServer(options.broker, queue, options.subjectPrefix);
  return new PrefixedNatsServer(
    { servers: natsServers(options.url), queue, name: `${options.name}-server`, maxReconnectAttempts: -1, waitOnFirstConnect: true, gracefulShutdown: true, gracePeriod: 500, serializer: new ReplySerializer() },
    options.subjectPrefix,
    replicaId(options.name),
  );
}

export function createClientProxy(options: TransportOptions): ClientProxy {
  if (options.kind === 'in-process') return new InProcessClient(options.broker, options.subjectPrefix);
  return new PrefixedNatsClient({ servers: natsServers(options.url), name: `${options.name}-client`, maxReconnectAttempts: -1, deserializer: new ReplyDeserializer() }, options.subjectPrefix, options.replicaSilenceMs ?? 0) as unknown as ClientProxy;
}

export async function createEventBus(options: TransportOptions, logger: Logger): Promise<EventBus> {
  if (options.kind === 'in-process') return new InProcessEventBus(options.broker, options.subjectPrefix);
  return JetStreamEventBus.connect({ url: options.url, name: options.name, stream: streamNameFor(options.subjectPrefix), subjectPrefix: options.subjectPrefix, logger, replicas: options.replicas });
}
