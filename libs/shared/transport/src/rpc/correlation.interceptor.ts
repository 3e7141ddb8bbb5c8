import { withCorrelationId } from '@doable/shared-logging';
import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { NatsContext } from '@nestjs/microservices';
import { Observable } from 'rxjs';
import { HEADERS } from '../transport-options';

/** Restores the caller's correlation id (from the message headers) around the handler. */
@Injectable()
export class CorrelationInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const rpc = context.switchToRpc().getContext<NatsContext>();
    const header = (rpc.getHeaders?.() as { get(key: string): string } | undefined)?.get(HEADERS.correlationId) || undefined;
    return new Observable((subscriber) => withCorrelationId(header, () => next.handle().subscribe(subscriber)));
  }
}
