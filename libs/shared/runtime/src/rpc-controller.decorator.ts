import { CorrelationInterceptor, ReplyChunkingInterceptor, RpcErrorFilter } from '@doable/shared-transport';
import { applyDecorators, Controller, UseFilters, UseInterceptors } from '@nestjs/common';
import { RpcMetricsInterceptor } from './metrics/rpc-metrics.interceptor';

/**
 * A message controller: a thin transport over a feature service. Errors leave as wire codes,
 * the caller's correlation id is restored, handler timings are measured, and large replies are
 * sent in chunks that fit the broker's message size.
 */
export function RpcController(): ClassDecorator {
  return applyDecorators(Controller(), UseFilters(RpcErrorFilter), UseInterceptors(CorrelationInterceptor, RpcMetricsInterceptor, ReplyChunkingInterceptor));
}
