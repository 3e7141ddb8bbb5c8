import { z } from 'zod';
import { withStorableText } from './input/storable-text';
import { principalSchema } from './principal';

/**
 * The gateway forwards an authenticated HTTP request to the owning service as an edge
 * request; the service's dialect parses it and renders the reply. The gateway keeps no
 * domain logic: it only chooses the subject and dialect from its route table.
 */
/**
 * `sync-v8`: Sync v8 (`/sync/v8/sync`) and the v8 satellites old clients still call (quick add, token revoke).
 * `first-generation`: the pre-v6 `/API/*` calls and the `TodoistSync` get/sync calls.
 * `mcp`: the assistant server's JSON-RPC messages (`/mcp`).
 */
export const DIALECTS = ['sync-v6', 'sync-v7', 'sync-v8', 'sync-v9', 'sync-api-v1', 'rest-v1', 'rest-v2', 'rest-api-v1', 'first-generation', 'mcp'] as const;
export type Dialect = (typeof DIALECTS)[number];

const scalar = z.union([z.string(), z.array(z.string())]);

export const edgeRequestSchema = z.object({
  dialect: z.enum(DIALECTS),
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
  path: z.string(),
  params: z.record(z.string(), z.string()),
  query: z.record(z.string(), scalar),
  /** Parsed body: JSON as sent, or form fields as strings. */
  body: z.unknown(),
  principal: principalSchema.nullable(),
  /** `X-Request-Id` when the client sent one (idempotency for REST writes). */
  requestId: z.string().max(36).nullable(),
  /**
   * Optional, for browser flows on routes without bearer auth: a small subset of the request
   * headers (lower-case names: cookie, authorization, origin, referer, content-type). Bearer
   * routes never carry the raw token here; their principal says who is calling.
   */
  headers: z.record(z.string(), z.string()).optional(),
  /** Optional: the origin the caller used (`scheme://host[:port]`), for absolute URLs in replies. */
  origin: z.string().max(2048).optional(),
  /**
   * Optional, on upload routes only: the file part of the request, already streamed by the
   * gateway into the blob store under `key` (which the service adopts or deletes). The
   * request's other form fields are in `body`. `declaredType` is what the client said, never
   * trusted: the service detects the type from the bytes.
   */
  upload: z
    .object({
      key: z.string().max(512),
      size: z.number().int().min(0),
      fileName: z.string().max(1024),
      declaredType: z.string().max(255).nullable(),
    })
    .optional(),
});
export type EdgeRequest = z.infer<typeof edgeRequestSchema>;

/**
 * An edge request into the task domain (sync's completed, quick add and archive endpoints, and
 * rest): its path parameters, query and body must keep the text rule (input/storable-text.ts),
 * checked as the message is consumed, so no endpoint has to remember it. The Sync API's own
 * edge is not checked whole: each command's arguments are checked on their own, so one bad
 * command of a batch is refused alone.
 */
export const domainEdgeRequestSchema = withStorableText(edgeRequestSchema);

export interface EdgeReply {
  readonly status: number;
  /** JSON-serialisable body; `null` with 204. */
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Optional: the body is not JSON but text of this media type (`text/html; charset=utf-8`),
   * sent as is. Absent: the body is rendered as JSON.
   */
  readonly contentType?: string;
  /** Optional: `Set-Cookie` values, one per cookie. */
  readonly cookies?: readonly string[];
  /**
   * Optional: the answer is a stored file (a download, a backup); the gateway streams it from
   * the blob store with these headers and ignores `body`. Bytes never cross NATS in a reply.
   */
  readonly blob?: EdgeBlob;
  /**
   * Optional, from sync only: this user's "nothing new" answer to a read (no commands). The same
   * request gets the same answer until the user's marks move, so the gateway may give it again
   * itself (contracts-sync gateway-polls.ts). Never sent to the client.
   */
  readonly unchangedFor?: string;
}

export interface EdgeBlob {
  readonly key: string;
  readonly size: number;
  readonly contentType: string;
  readonly fileName: string;
  /** `attachment` (default) makes browsers save it; `inline` lets them show an image. */
  readonly disposition?: 'inline' | 'attachment';
}

const edgeBlobSchema = z.object({
  key: z.string(),
  size: z.number(),
  contentType: z.string(),
  fileName: z.string(),
  disposition: z.enum(['inline', 'attachment']).optional(),
});

/** EdgeReply as a schema: what every edge subject answers, recorded in each release's contract snapshot. */
export const edgeReplySchema: z.ZodType<EdgeReply> = z.object({
  status: z.number().int(),
  body: z.unknown(),
  headers: z.record(z.string(), z.string()).optional(),
  contentType: z.string().optional(),
  cookies: z.array(z.string()).optional(),
  blob: edgeBlobSchema.optional(),
  unchangedFor: z.string().optional(),
});

export const JSON_MEDIA_TYPE = 'application/json; charset=utf-8';

/**
 * A JSON reply serialised once, by the service that built it. The gateway sends the text as it
 * is: a large answer (a full sync, a long task list) is not parsed back into objects and
 * stringified again at the edge.
 */
export function jsonReply(status: number, body: unknown, headers?: Readonly<Record<string, string>>): EdgeReply {
  if (status === 204 || body === null || body === undefined) return { status, body: null, ...(headers ? { headers } : {}) };
  return { status, body: JSON.stringify(body), contentType: JSON_MEDIA_TYPE, ...(headers ? { headers } : {}) };
}
