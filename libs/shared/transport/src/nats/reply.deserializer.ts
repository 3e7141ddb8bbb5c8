import type { MsgHdrs } from '@nats-io/transport-node';
import { IncomingResponseDeserializer } from '@nestjs/microservices';
import { decodeReplyMessage } from './reply-frames';

interface NatsReplyMessage {
  readonly data: Uint8Array;
  readonly headers?: Pick<MsgHdrs, 'get'>;
  json(): unknown;
}

/** The NATS client's reply deserializer: Nest's JSON one, which also reads framed replies (see reply-frames.ts). */
export class ReplyDeserializer extends IncomingResponseDeserializer {
  override deserialize(message: NatsReplyMessage, options?: Record<string, unknown>): ReturnType<IncomingResponseDeserializer['deserialize']> {
    return super.deserialize(
      decodeReplyMessage(message.data, () => message.json(), message.headers),
      options,
    );
  }
}
