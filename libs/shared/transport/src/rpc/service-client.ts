import type { RequestSubject } from '@doable/contracts-common';
import { currentCorrelationId, inSpan, SpanKind, traceCarrier } from '@doable/shared-logging';
import { type ClientProxy, NatsRecordBuilder } from '@nestjs/microservices';
import { headers as natsHeaders } from '@nats-io/transport-node';
import { firstValueFrom, timeout, toArray } from 'rxjs';
import { withTextBody, type WithBodyBytes } from '../wire/body-bytes';
import { assembleReply } from './reply-chunks';
import { packRequest } from './request-packing';
import { HEADERS, REPLY_FRAMES, type TransportOptions } from '../transport-options';
import { BEAT_HEADERS, beatIntervalFor } from '../nats/replica-beats';
import { toCallerError } from './transport-error';

export interface RequestOptions {
  /** Overrides the service's default request timeout (uploads need minutes, not seconds). */
  readonly timeoutMs?: number;
  /**
   * Safe to run twice (a read; commands that carry their uuids; a write with X-Request-Id): if
   * the replica that took it falls silent, it goes again to a live one instead of failing.
   */
  readonly resendable?: boolean;
  /**
   * `bytes`: a reply body that came as raw bytes (a long text body over NATS) stays a Buffer, for
   * a caller that only passes it on (wire/body-bytes.ts). `text` (the default): always text.
   */
  readonly bodyAs?: 'text' | 'bytes';
}

/**
 * Told how each request went: its subject, the seconds until the whole reply (or the failure)
 * arrived, and the outcome: an answer, a coded refusal from the service (an answer too), or
 * the service unavailable (a timeout, no responder, a lost replica or connection).
 */
export type RequestObserver = (subject: string, seconds: number, outcome: 'ok' | 'refused' | 'unavailable') => void;

/**
 * The typed way to call another service: the subject fixes the payload and reply types at
 * compile time; every call has a timeout; failures arrive as coded DomainErrors.
 */
export class ServiceClient {
  constructor(
    private readonly proxy: ClientProxy,
    private readonly transport: TransportOptions,
    private readonly defaultTimeoutMs: number,
    /** The kernel's request-latency histogram (doable_rpc_client_seconds); none in a bare client. */
    private readonly observe: RequestObserver = () => undefined,
  ) {}

  request<Req, Rep>(subject: RequestSubject<Req, Rep>, payload: Req, options: RequestOptions & { readonly bodyAs: 'bytes' }): Promise<WithBodyBytes<Rep>>;
  request<Req, Rep>(subject: RequestSubject<Req, Rep>, payload: Req, options?: RequestOptions): Promise<Rep>;
  async request<Req, Rep>(subject: RequestSubject<Req, Rep>, payload: Req, options: RequestOptions = {}): Promise<Rep | WithBodyBytes<Rep>> {
    // A client span per request; its context travels in the headers (W3C traceparent), so the handler's span is its child.
    return inSpan(`${subject.name} request`, { kind: SpanKind.CLIENT, attributes: { 'messaging.system': 'nats', 'messaging.destination.name': subject.name } }, async (span) => {
      // In-process messages have no size limit; NATS ones do (see request-packing.ts).
      const message = this.transport.kind === 'in-process' ? payload : packRequest(payload);
      const record = new NatsRecordBuilder(message).setHeaders(this.headers(options)).build();
      const started = process.hrtime.bigint();
      const elapsed = () => Number(process.hrtime.bigint() - started) / 1e9;
      try {
        // `timeout` bounds the wait for each message; a chunked reply is several messages.
        const messages = await firstValueFrom(this.proxy.send<unknown>(subject.name, record).pipe(timeout(options.timeoutMs ?? this.defaultTimeoutMs), toArray()));
        const reply = assembleReply<Rep>(messages);
        this.observe(subject.name, elapsed(), 'ok');
        return options.bodyAs === 'bytes' ? reply : withTextBody(reply);
      } catch (err) {
        const failure = toCallerError(err, subject.name);
        this.observe(subject.name, elapsed(), failure.code === 'SERVICE_UNAVAILABLE' ? 'unavailable' : 'refused');
        span.setAttribute('doable.error_code', failure.code);
        throw failure;
      }
    });
  }

  private headers(options: RequestOptions): unknown {
    const correlationId = currentCorrelationId();
    const trace = traceCarrier();
    if (this.transport.kind === 'in-process') return { ...trace, ...(correlationId ? { [HEADERS.correlationId]: correlationId } : {}) };
    const headers = natsHeaders();
    if (correlationId) headers.set(HEADERS.correlationId, correlationId);
    for (const [key, value] of Object.entries(trace)) headers.set(key, value);
    headers.set(HEADERS.replyFrames, REPLY_FRAMES.headsInHeaders);
    const silenceMs = this.transport.replicaSilenceMs ?? 0;
    if (silenceMs > 0) {
      headers.set(BEAT_HEADERS.request, String(beatIntervalFor(silenceMs)));
      if (options.resendable) headers.set(BEAT_HEADERS.resendable, '1');
    }
    return headers;
  }
}
