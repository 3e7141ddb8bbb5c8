import { contextFromCarrier, markFailed, SpanKind, startSpan, withCorrelationId, withTraceContext } from '@doable/shared-logging';
import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { NatsContext } from '@nestjs/microservices';
import { finalize, Observable, tap } from 'rxjs';
import { HEADERS } from '../transport-options';

type Headers = { get(key: string): string } | undefined;

/**
 * Restores the caller's correlation id and trace context (from the message headers) around the
 * handler: the handler runs in a server span whose parent is the caller's request span, so one
 * trace follows a request from the gateway through every service it reaches.
 */
@Injectable()
export class CorrelationInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const rpc = context.switchToRpc();
    const headers = rpc.getContext<NatsContext>().getHeaders?.() as Headers;
    const correlationId = headers?.get(HEADERS.correlationId) || undefined;
    const subject = String(rpc.getContext<{ getArgByIndex(i: number): unknown }>().getArgByIndex(0));
    const parent = contextFromCarrier((key) => headers?.get(key));
    const { span, context: traced } = startSpan(`${subject} handle`, {
      kind: SpanKind.SERVER,
      parent,
      attributes: { 'messaging.system': 'nats', 'messaging.destination.name': subject },
    });
    // The handler is called inside both contexts (Nest calls it from handle()); its span ends
    // however the reply ends: completed, failed, or its subscriber gone (a caller that timed out).
    return new Observable((subscriber) =>
      withTraceContext(traced, () =>
        withCorrelationId(correlationId, () =>
          next
            .handle()
            .pipe(
              tap({ error: (err: unknown) => markFailed(span, err) }),
              finalize(() => span.end()),
            )
            .subscribe(subscriber),
        ),
      ),
    );
  }
}
