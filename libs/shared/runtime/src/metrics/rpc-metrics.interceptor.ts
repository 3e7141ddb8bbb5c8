import { type CallHandler, type ExecutionContext, Inject, Injectable, type NestInterceptor } from '@nestjs/common';
import { Histogram, type Registry } from 'prom-client';
import { type Observable, tap } from 'rxjs';
import { METRICS_REGISTRY } from '../service/tokens';

/** How long each message handler takes, by subject and outcome. */
@Injectable()
export class RpcMetricsInterceptor implements NestInterceptor {
  private readonly histogram: Histogram<'subject' | 'outcome'>;

  constructor(@Inject(METRICS_REGISTRY) registry: Registry) {
    const existing = registry.getSingleMetric('doable_rpc_handler_seconds') as Histogram<'subject' | 'outcome'> | undefined;
    this.histogram =
      existing ??
      new Histogram({
        name: 'doable_rpc_handler_seconds',
        help: 'Time spent in message handlers',
        labelNames: ['subject', 'outcome'],
        buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15],
        registers: [registry],
      });
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const subject = String(context.switchToRpc().getContext<{ getSubject?(): string; getArgByIndex(i: number): unknown }>().getArgByIndex(0));
    const end = this.histogram.startTimer({ subject });
    return next.handle().pipe(tap({ next: () => end({ outcome: 'ok' }), error: () => end({ outcome: 'error' }) }));
  }
}
