import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { NatsContext } from '@nestjs/microservices';
import { mergeMap, type Observable } from 'rxjs';
import { HEADERS, REPLY_FRAMES } from '../transport-options';
import { chunkReply } from './reply-chunks';

/**
 * Sends large replies as chunks (see reply-chunks.ts); ServiceClient puts them back together.
 * Long text bodies are framed only as far as the caller said it reads frames (HEADERS.replyFrames).
 */
@Injectable()
export class ReplyChunkingInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const headers = context.switchToRpc().getContext<NatsContext>().getHeaders?.() as { get?(key: string): string } | undefined;
    const frames = headers?.get?.(HEADERS.replyFrames);
    const frameChunks = frames === REPLY_FRAMES.bodyChunks;
    const frameBodies = frameChunks || frames === REPLY_FRAMES.bodies;
    return next.handle().pipe(mergeMap((value: unknown) => chunkReply(value, { frameBodies, frameChunks })));
  }
}
