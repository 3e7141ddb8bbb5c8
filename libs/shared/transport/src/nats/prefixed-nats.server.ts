import { ServerNats } from '@nestjs/microservices';

type NatsConnection = { subscribe(subject: string, opts: { queue?: string; callback: (...args: never[]) => unknown }): unknown };

/**
 * Nest's NATS server, subscribing every pattern under the deployment's subject prefix while
 * still dispatching by the unprefixed pattern. Queue group = service name, so replicas share
 * the load.
 */
export class PrefixedNatsServer extends ServerNats {
  private readonly defaultQueue: string | undefined;

  constructor(
    options: ConstructorParameters<typeof ServerNats>[0],
    private readonly subjectPrefix: string,
  ) {
    super(options);
    this.defaultQueue = options?.queue;
  }

  override bindEvents(client: NatsConnection): void {
    const subscriptions = (this as unknown as { subscriptions: unknown[] }).subscriptions;
    for (const [pattern, handlerRef] of this.messageHandlers) {
      const queue = (handlerRef.extras?.queue as string | undefined) ?? this.defaultQueue;
      subscriptions.push(
        client.subscribe(this.subjectPrefix + pattern, { queue, callback: this.getMessageHandler(pattern).bind(this) as never }),
      );
    }
  }
}
