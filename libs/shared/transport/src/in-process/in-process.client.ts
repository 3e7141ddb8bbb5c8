import { ClientProxy, NatsRecord, type ReadPacket, type WritePacket } from '@nestjs/microservices';
import { type InProcessBroker, NO_RESPONDERS } from './in-process-broker';

/** Nest client proxy over the in-process broker; see InProcessServer. */
export class InProcessClient extends ClientProxy {
  constructor(
    private readonly broker: InProcessBroker,
    private readonly subjectPrefix: string,
  ) {
    super();
  }

  connect(): Promise<void> {
    return Promise.resolve();
  }

  override close(): void {
    // Nothing to release: the broker belongs to the embedded system.
  }

  override on(): void {
    // No connection status in process.
  }

  unwrap<T>(): T {
    return this.broker as unknown as T;
  }

  protected publish(partialPacket: ReadPacket, callback: (packet: WritePacket) => void): () => void {
    const packet = this.assignPacketId(partialPacket);
    const subject = this.subjectPrefix + this.normalizePattern(packet.pattern as string);
    const { data, headers } = splitRecord(packet.data as unknown);
    let done = false;
    const delivered = this.broker.request(
      subject,
      JSON.stringify({ id: packet.id, pattern: packet.pattern as string, data }),
      headers,
      (rawReply) => {
        if (done) return;
        const reply = JSON.parse(rawReply) as WritePacket & { id: string };
        if (reply.isDisposed || reply.err) done = true;
        callback(reply);
      },
    );
    if (!delivered) {
      done = true;
      setImmediate(() => callback({ err: NO_RESPONDERS, isDisposed: true }));
    }
    return () => {
      done = true;
    };
  }

  protected dispatchEvent<T = unknown>(packet: ReadPacket): Promise<T> {
    const pattern = packet.pattern as string;
    const { data, headers } = splitRecord(packet.data as unknown);
    this.broker.publish(this.subjectPrefix + this.normalizePattern(pattern), JSON.stringify({ pattern, data }), headers);
    return Promise.resolve(undefined as T);
  }
}

/** A NatsRecord carries headers beside the data; plain data has none. */
function splitRecord(value: unknown): { data: unknown; headers: Record<string, string> } {
  if (value instanceof NatsRecord) {
    const headers = (value.headers ?? {}) as Record<string, string>;
    return { data: value.data, headers };
  }
  return { data: value, headers: {} };
}
