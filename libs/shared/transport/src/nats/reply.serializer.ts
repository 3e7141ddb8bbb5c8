import type { ConsumerSerializer, OutgoingResponse } from '@nestjs/microservices';
import { stringifyReplyPacket } from '../rpc/serialized-reply';

/**
 * The NATS server's reply serializer: what Nest's own does for a reply (JSON text, no
 * headers), except that a reply the chunking interceptor already serialised is not
 * stringified again (see serialized-reply.ts).
 */
export class ReplySerializer implements ConsumerSerializer {
  serialize(packet: OutgoingResponse): { data: string; headers: undefined } {
    return { data: stringifyReplyPacket(packet), headers: undefined };
  }
}
