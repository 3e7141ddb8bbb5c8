import type { EdgeReply, EdgeRequest, Principal } from '@doable/contracts-common';
import { SyncSubjects } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { ServiceClient } from '@doable/shared-transport';
import { Injectable } from '@nestjs/common';
import { UnchangedPolls } from '../polls/unchanged-polls';
import type { Route } from '../routes/route';
import type { RouteMatch } from '../routes/route-table';

export interface IncomingEdgeCall {
  readonly method: string;
  readonly path: string;
  readonly query: Record<string, unknown>;
  readonly body: unknown;
  readonly principal: Principal | null;
  readonly requestId: string | undefined;
  /** Request headers by lower-case name (only a fixed few are ever forwarded). */
  readonly headers?: Readonly<Record<string, string | string[] | undefined>>;
  /** `scheme://host[:port]` as the caller addressed the gateway. */
  readonly origin?: string;
  /** On an upload route: the file, already streamed into the blob store (upload-relay.ts). */
  readonly upload?: EdgeRequest['upload'];
}

/**
 * Headers a browser flow needs (session cookie, HTTP Basic client credentials, the Origin for
 * CSRF checks). Forwarded only on routes without bearer auth, so a raw bearer token never
 * leaves the edge: bearer routes carry the principal instead.
 */
const FORWARDED_HEADERS = ['cookie', 'authorization', 'origin', 'referer', 'content-type'] as const;
const MAX_FORWARDED_HEADER_BYTES = 8 * 1024;

function forwardedHeaders(headers: IncomingEdgeCall['headers'], names: readonly string[] = FORWARDED_HEADERS): Record<string, string> | undefined {
  if (!headers) return undefined;
  const out: Record<string, string> = {};
  for (const name of names) {
    if (name === 'authorization' && names !== FORWARDED_HEADERS) continue;
    const raw = headers[name];
    const value = Array.isArray(raw) ? raw.join('; ') : raw;
    if (value !== undefined && Buffer.byteLength(value) <= MAX_FORWARDED_HEADER_BYTES) out[name] = value;
  }
  return out;
}

const MAX_REQUEST_ID_BYTES = 36;

/** Query values as strings or string lists; anything nested travels as JSON text. */
function normaliseQuery(query: Record<string, unknown>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of Object.entries(query)) {
    if (typeof value === 'string') out[key] = value;
    else if (Array.isArray(value) && value.every((item) => typeof item === 'string')) out[key] = value;
    else if (value !== undefined) out[key] = JSON.stringify(value);
  }
  return out;
}

/**
 * Safe to send again to another replica when the first falls silent (a crash): a read (a GET,
 * unless the route writes on GET: the first generation's); a Sync API request (every command
 * carries its uuid: a second run replays, never repeats); a write with X-Request-Id (its
 * idempotency key).
 */
function isResendable(route: Route, request: EdgeRequest): boolean {
  const syncApi = route.subject === SyncSubjects.edge && route.dialect.startsWith('sync-');
  return (route.method === 'GET' && route.writesOnGet !== true) || route.idempotent === true || request.requestId !== null || syncApi;
}

/**
 * Adapter-neutral core of the gateway: turns a matched HTTP call into the route's edge
 * request and returns the service's reply. Knows no HTTP framework and no domain.
 */
@Injectable()
export class EdgeForwarder {
  constructor(
    private readonly services: ServiceClient,
    private readonly polls: UnchangedPolls,
  ) {}

  async forward(match: RouteMatch, call: IncomingEdgeCall): Promise<EdgeReply> {
    if (call.requestId !== undefined && Buffer.byteLength(call.requestId) > MAX_REQUEST_ID_BYTES) {
      throw new DomainError('INVALID_ARGUMENT_VALUE', `X-Request-Id must be at most ${MAX_REQUEST_ID_BYTES} bytes`, { argument: 'X-Request-Id' });
    }
    const request: EdgeRequest = {
      dialect: match.route.dialect,
      method: match.route.method,
      path: call.path,
      params: match.params,
      query: normaliseQuery(call.query),
      body: call.body ?? null,
      principal: call.principal,
      requestId: call.requestId ?? null,
    };
    if (match.route.auth === 'none') {
      const headers = forwardedHeaders(call.headers);
      if (headers) request.headers = headers;
    } else if (match.route.forwardHeaders) {
      const headers = forwardedHeaders(call.headers, match.route.forwardHeaders);
      if (headers) request.headers = headers;
    }
    // Every route: absolute URLs in replies (file and backup downloads, OAuth pages) name the
    // gateway the caller reached, whichever replica or port that was.
    if (call.origin) request.origin = call.origin;
    if (call.upload) request.upload = call.upload;
    const reply = await this.polls.answer(match.route, request, () =>
      // A long body stays the bytes it came as: written to HTTP as they are (reply-body.ts).
      this.services.request(match.route.subject, request, { timeoutMs: match.route.timeoutMs, resendable: isResendable(match.route, request), bodyAs: 'bytes' }),
    );
    if (!reply || typeof reply.status !== 'number') throw new DomainError('INTERNAL', 'malformed reply from service');
    return reply;
  }
}
