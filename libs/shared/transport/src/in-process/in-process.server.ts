import { type CustomTransportStrategy, NatsContext, Server } from '@nestjs/microservices';
import type { InProcessBroker } from './in-process-broker';
import { MessageHeaders } from './message-headers';
import { stringifyReplyPacket } from '../wire/serialized-reply';

interface Packet {
  id?: string;
  pattern: string;
  data: unknown;
}

/**
 * Nest microservice strategy over the in-process broker. It reuses Nest's own request
 * pipeline (guards, pipes, interceptors, filters) exactly as the NATS server does; only the
 * bytes travel differently.
 */
export class InProcessServer extends Server implements CustomTransportStrategy {
  override readonly transportId = Symbol('in-process');
  private readonly unsubscribers: Array<() => void> = [];

  constructor(
    private readonly broker: InProcessBroker,
    private readonly queue: string,
    private readonly subjectPrefix: string,
  ) {
    super();
  }

  listen(callback: (err?: unknown) => void): void {
    for (const pattern of this.messageHandlers.keys()) {
      this.unsubscribers.push(
        this.broker.serve(this.subjectPrefix + pattern, this.queue, (raw, headers, respond) => {
          this.dispatch(pattern, raw, new MessageHeaders(headers), respond).catch((err: unknown) => this.handleError(String(err)));
        }),
      );
    }
    callback();
  }

  private async dispatch(pattern: string, raw: string, headers: MessageHeaders, respond: (raw: string) => void): Promise<void> {
    const packet = JSON.parse(raw) as Packet;
    const context = new NatsContext([pattern, headers]);
    if (packet.id === undefined) {
      await this.handleEvent(pattern, packet, context);
      return;
    }
    const handler = this.getHandlerByPattern(pattern);
    const reply = (response: object) => respond(stringifyReplyPacket({ ...response, id: packet.id }));
    if (!handler) {
      reply({ err: 'NO_HANDLER', isDisposed: true });
      return;
    }
    // Typed as void by Nest, but it returns the processing promise: wait for it so errors surface here.
    await Promise.resolve(this.handleRequest(context, async () => this.transformToObservable<unknown>(await (handler(packet.data, context) as Promise<unknown>)), reply));
  }

  close(): void {
    for (const unsubscribe of this.unsubscribers.splice(0)) unsubscribe();
  }

  on(): void {
    // The in-process broker has no connection status to report.
  }

  unwrap<T>(): T {
    return this.broker as unknown as T;
  }
}
