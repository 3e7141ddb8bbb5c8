import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { NatsContext } from '@nestjs/microservices';
import { mergeMap, type Observable } from 'rxjs';
import { HEADERS, REPLY_FRAMES, replyFramesLevel } from '../transport-options';
import { chunkReply } from './reply-chunks';

/**
 * Sends large replies as chunks (see reply-chunks.ts); ServiceClient puts them back together.
 * Long text bodies are framed only as far as the caller said it reads frames (HEADERS.replyFrames).
 */
@Injectable()
export class ReplyChunkingInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const headers = context.switchToRpc().getContext<NatsContext>().getHeaders?.() as { get?(key: string): string } | undefined;
    const level = replyFramesLevel(headers?.get?.(HEADERS.replyFrames));
    const options = {
      frameBodies: level >= Number(REPLY_FRAMES.bodies),
      frameChunks: level >= Number(REPLY_FRAMES.bodyChunks),
      headsInHeaders: level >= Number(REPLY_FRAMES.headsInHeaders),
    };
    return next.handle().pipe(mergeMap((value: unknown) => chunkReply(value, options)));
  }
}
