import { Writable } from 'node:stream';
import { contextFromCarrier, createLogger, inSpan, SpanKind, traceCarrier } from '@doable/shared-logging';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { startTracing, tracingEnvSchema } from './start-tracing';

const settings = tracingEnvSchema.parse({});
const quiet = createLogger('tracing-spec', 'silent');

/** A logger whose lines this spec reads back. */
function capturingLogger(): { logger: ReturnType<typeof createLogger>; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger('spec', 'info', destination), lines };
}

describe('startTracing', () => {
  it('is off without a collector: spans record nothing and log lines carry no trace id', async () => {
    const tracing = startTracing(settings, 'doable-spec', quiet);
    const { logger, lines } = capturingLogger();
    await inSpan('work', {}, (span) => {
      expect(span.isRecording()).toBe(false);
      logger.info('inside');
      return Promise.resolve();
    });
    expect(traceCarrier()).toEqual({});
    expect(lines[0]).not.toHaveProperty('trace_id');
    await tracing.stop();
  });

  it('records nested spans as one trace, stamps log lines with its ids, and continues a carried context', async () => {
    const exporter = new InMemorySpanExporter();
    const tracing = startTracing(settings, 'doable-spec', quiet, [new SimpleSpanProcessor(exporter)]);
    const { logger, lines } = capturingLogger();
    let carrier: Record<string, string> = {};
    // Read before stop(): the in-memory exporter forgets its spans when shut down.
    let finished: ReturnType<InMemorySpanExporter['getFinishedSpans']>;
    try {
      await inSpan('outer', { kind: SpanKind.SERVER }, async () => {
        await inSpan('inner', {}, () => {
          logger.info('inside');
          carrier = traceCarrier();
          return Promise.resolve();
        });
      });
      // Another process (or a later event) continues from the carrier alone.
      await inSpan('continued', { kind: SpanKind.CONSUMER, parent: contextFromCarrier((key) => carrier[key]) }, () => Promise.resolve());
      await expect(inSpan('failing', {}, () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
      finished = exporter.getFinishedSpans();
    } finally {
      await tracing.stop();
    }
    const spans = new Map(finished.map((span) => [span.name, span]));
    const [outer, inner, continued, failing] = ['outer', 'inner', 'continued', 'failing'].map((name) => spans.get(name)!);
    expect(inner.parentSpanContext?.spanId).toBe(outer.spanContext().spanId);
    expect(continued.parentSpanContext?.spanId).toBe(inner.spanContext().spanId);
    expect(new Set([outer, inner, continued].map((span) => span.spanContext().traceId)).size).toBe(1);
    expect(failing.status.code).toBe(2);
    expect(outer.resource.attributes['service.name']).toBe('doable-spec');
    expect(lines[0]).toMatchObject({ trace_id: inner.spanContext().traceId, span_id: inner.spanContext().spanId });
    expect(carrier.traceparent).toBe(`00-${inner.spanContext().traceId}-${inner.spanContext().spanId}-01`);
  });

  it('leaves the process untraced once stopped, so a later system starts its own', async () => {
    await startTracing(settings, 'first', quiet, [new SimpleSpanProcessor(new InMemorySpanExporter())]).stop();
    await inSpan('between', {}, (span) => Promise.resolve(expect(span.isRecording()).toBe(false)));
    const second = new InMemorySpanExporter();
    const tracing = startTracing(settings, 'second', quiet, [new SimpleSpanProcessor(second)]);
    try {
      await inSpan('after', {}, () => Promise.resolve());
      expect(second.getFinishedSpans().map((span) => [span.name, span.resource.attributes['service.name']])).toEqual([['after', 'second']]);
    } finally {
      await tracing.stop();
    }
  });

  it('keeps the first provider when a second system in the process starts tracing', async () => {
    const first = new InMemorySpanExporter();
    const tracing = startTracing(settings, 'first', quiet, [new SimpleSpanProcessor(first)]);
    const second = startTracing(settings, 'second', quiet, [new SimpleSpanProcessor(new InMemorySpanExporter())]);
    try {
      await second.stop();
      await inSpan('still traced', {}, () => Promise.resolve());
      expect(first.getFinishedSpans().map((span) => span.name)).toEqual(['still traced']);
    } finally {
      await tracing.stop();
    }
  });
});
