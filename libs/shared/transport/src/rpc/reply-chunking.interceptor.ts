import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { mergeMap, type Observable } from 'rxjs';
import { chunkReply } from './reply-chunks';

/** Sends large replies as chunks (see reply-chunks.ts); ServiceClient puts them back together. */
@Injectable()
export class ReplyChunkingInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(mergeMap((value: unknown) => chunkReply(value)));
  }
}
