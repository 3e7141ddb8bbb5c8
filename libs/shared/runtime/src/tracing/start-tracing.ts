import { context, propagation, trace } from '@opentelemetry/api';
import { env } from '@doable/shared-config';
import { type Logger, PRODUCT_VERSION, setTracingActive } from '@doable/shared-logging';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider, ParentBasedSampler, TraceIdRatioBasedSampler, type SpanProcessor } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { z } from 'zod';
import { instrumentPg } from './pg-spans';

/**
 * The OpenTelemetry settings, by the specification's own names so a platform team's usual
 * configuration works unchanged. No endpoint: tracing stays off, and the API's no-op tracer
 * makes every span in the code free.
 */
export const tracingEnvSchema = z.object({
  /** The collector's base URL; traces go to `<it>/v1/traces` (OTLP over HTTP, JSON). */
  OTEL_EXPORTER_OTLP_ENDPOINT: env.url(['http', 'https']).optional(),
  /** The traces URL itself, used as it is (wins over the base URL). */
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: env.url(['http', 'https']).optional(),
  /** The resource's service.name; by default `doable-<service>` (cluster) or `doable` (embedded). */
  OTEL_SERVICE_NAME: z.string().min(1).max(100).optional(),
  /** How long finished spans wait to be sent together (ms). */
  OTEL_BSP_SCHEDULE_DELAY: env.positiveInt(5_000),
  /** The share of new traces recorded (a trace a caller started keeps its caller's decision). */
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).default(1),
});
export type TracingSettings = z.infer<typeof tracingEnvSchema>;

export interface Tracing {
  /** Sends what is left and turns tracing off again (the process's API globals included). */
  stop(): Promise<void>;
}

const OFF: Tracing = { stop: () => Promise.resolve() };

/** Where spans go: the traces URL, or the base URL's `/v1/traces` (as the OTLP specification says). */
function tracesUrl(settings: TracingSettings): string | undefined {
  if (settings.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return settings.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (settings.OTEL_EXPORTER_OTLP_ENDPOINT) return `${settings.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`;
  return undefined;
}

/**
 * Starts tracing for this process when a collector is configured: a tracer provider with the
 * W3C propagator and an AsyncLocalStorage context (so a span follows its work across awaits),
 * spans batched to the collector, and SQL spans from the pg instrumentation. One per process:
 * embedded mode starts it once for every service.
 */
export function startTracing(settings: TracingSettings, defaultServiceName: string, logger: Logger, processors?: SpanProcessor[]): Tracing {
  const url = tracesUrl(settings);
  if (!url && !processors) return OFF;
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: settings.OTEL_SERVICE_NAME ?? defaultServiceName, [ATTR_SERVICE_VERSION]: PRODUCT_VERSION }),
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(settings.OTEL_TRACES_SAMPLER_ARG) }),
    spanProcessors: processors ?? [new BatchSpanProcessor(new OTLPTraceExporter({ url }), { scheduledDelayMillis: settings.OTEL_BSP_SCHEDULE_DELAY })],
  });
  // The API holds one provider per process: taken already (a test's second system in one
  // process), the first keeps it, and this one's spans are that one's.
  if (!trace.setGlobalTracerProvider(provider)) {
    logger.warn('tracing is already started in this process; its provider is used');
    void provider.shutdown();
    return OFF;
  }
  // Released at once for register(), which sets it again with the context manager and propagator.
  trace.disable();
  provider.register();
  const pg = instrumentPg(provider);
  setTracingActive(true);
  logger.info({ tracesUrl: url }, 'tracing on');
  return {
    stop: async () => {
      setTracingActive(false);
      pg.stop();
      await provider.shutdown().catch((err: unknown) => logger.warn({ err }, 'the last spans could not be sent'));
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}
