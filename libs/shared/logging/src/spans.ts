import {
  type Attributes,
  context,
  type Context,
  INVALID_SPAN_CONTEXT,
  isSpanContextValid,
  type Link,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { withoutCorrelationId } from './correlation';

/**
 * Spans over the OpenTelemetry API only (issue #34). Until a process starts tracing
 * (shared-runtime's startTracing), the API's tracer is a no-op and nothing here records or
 * exports anything; with it, every span below joins the request's trace.
 */
export { SpanKind };
export type { Span };

/** The product's one tracer; which part made a span is in its name and attributes. */
const tracer = () => trace.getTracer('doable');

/**
 * Whether this process traces (set by shared-runtime's startTracing). Off, the helpers below
 * skip the API altogether: even its no-op spans and contexts cost about a microsecond each, a
 * few per request on the hottest path (the gateway's poll answers), for nothing.
 */
let active = false;
const UNTRACED: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

export function setTracingActive(on: boolean): void {
  active = on;
}

/** Whether spans record anything now: off, a caller may skip the work of describing one. */
export function isTracingActive(): boolean {
  return active;
}

export interface SpanOptions {
  readonly kind?: SpanKind;
  readonly attributes?: Attributes;
  /** The span's parent; by default the active span (the work this runs inside). */
  readonly parent?: Context;
  readonly links?: Link[];
}

/** Runs `work` as the active span `name`, ended when it settles; a failure is recorded on it. */
export function inSpan<T>(name: string, options: SpanOptions, work: (span: Span) => Promise<T>): Promise<T> {
  if (!active) return work(UNTRACED);
  const parent = options.parent ?? context.active();
  return tracer().startActiveSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes, links: options.links }, parent, async (span) => {
    try {
      return await work(span);
    } catch (err) {
      markFailed(span, err);
      throw err;
    } finally {
      span.end();
    }
  });
}

/** A span started now and ended by the caller (a reply that is an Observable), with the context to run its work in. */
export function startSpan(name: string, options: SpanOptions): { span: Span; context: Context } {
  const parent = options.parent ?? context.active();
  if (!active) return { span: UNTRACED, context: parent };
  const span = tracer().startSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes, links: options.links }, parent);
  return { span, context: trace.setSpan(parent, span) };
}

export function markFailed(span: Span, err: unknown): void {
  span.recordException(err instanceof Error ? err : String(err));
  span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
}

/** Runs `work` with `ctx` as the active context (so spans and SQL started inside are its children). */
export function withTraceContext<T>(ctx: Context, work: () => T): T {
  return context.with(ctx, work);
}

/** The W3C trace context of the active span (`traceparent`, and `tracestate` when set), for a header or a stored row. */
export function traceCarrier(ctx?: Context): Record<string, string> {
  const carrier: Record<string, string> = {};
  if (active) propagation.inject(ctx ?? context.active(), carrier);
  return carrier;
}

/** The active span's `traceparent`, or undefined when nothing is traced (what an outbox row keeps). */
export function currentTraceparent(): string | undefined {
  return traceCarrier().traceparent;
}

/**
 * The context a `traceparent` (and `tracestate`) names: the parent of the work that continues
 * it in another process or later (a NATS request, a relayed event). Nothing valid: the root.
 */
export function contextFromCarrier(read: (key: string) => string | undefined): Context {
  if (!active) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, undefined, {
    keys: () => ['traceparent', 'tracestate'],
    get: (_carrier, key) => read(key) || undefined,
  });
}

/** The context a stored `traceparent` names (an outbox row, an event envelope, a queued delivery); none: the root. */
export function contextFromTraceparent(traceparent: string | null | undefined): Context {
  return contextFromCarrier((key) => (key === 'traceparent' ? (traceparent ?? undefined) : undefined));
}

/** The ids log lines carry, so a line leads to its trace; none when nothing is traced. */
export function activeTraceIds(): { traceId: string; spanId: string } | undefined {
  if (!active) return undefined;
  const spanContext = trace.getSpanContext(context.active());
  if (!spanContext || !isSpanContextValid(spanContext)) return undefined;
  return { traceId: spanContext.traceId, spanId: spanContext.spanId };
}

/**
 * Runs `work` as belonging to no request: no active span, no correlation id. For a loop or timer
 * that a request may start (a relay nudged after a commit, a worker woken by a consumer):
 * AsyncLocalStorage follows timers and promises, so without this every later pass would run
 * inside that one request's context, its SQL spans and log lines attributed to it for ever.
 */
export function outsideRequest<T>(work: () => T): T {
  return withoutCorrelationId(() => (active ? context.with(ROOT_CONTEXT, work) : work()));
}
