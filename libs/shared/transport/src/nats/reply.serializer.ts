import type { MsgHdrs } from '@nats-io/transport-node';
import type { ConsumerSerializer, OutgoingResponse } from '@nestjs/microservices';
import { encodeReplyMessage } from './reply-frames';

/**
 * The NATS server's reply serializer: what Nest's own does for a reply (JSON text, no
 * headers), except that a reply the chunking interceptor already serialised is not
 * stringified again, and a long text body goes as raw bytes, its packet in the payload or in
 * the headers (see reply-frames.ts).
 */
export class ReplySerializer implements ConsumerSerializer {
  serialize(packet: OutgoingResponse): { data: string | Buffer; headers: MsgHdrs | undefined } {
    const { data, headers } = encodeReplyMessage(packet);
    return { data, headers };
  }
}
