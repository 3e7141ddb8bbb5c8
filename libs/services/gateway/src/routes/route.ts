import type { Dialect, EdgeReply, EdgeRequest, RequestSubject } from '@doable/contracts-common';

export type HttpMethod = EdgeRequest['method'];

/** One row of the gateway's routing: which service answers, in which dialect, under which rules. */
export interface Route {
  readonly method: HttpMethod;
  /** Path template; `:name` segments become params. */
  readonly path: string;
  readonly subject: RequestSubject<EdgeRequest, EdgeReply>;
  readonly dialect: Dialect;
  readonly auth: 'bearer' | 'none';
  /**
   * `address`: an unauthenticated route where credentials are tried (log-in, sign-up, token
   * exchange, revocation): counted per client address against the auth budget.
   */
  readonly limitBy?: 'address';
  /**
   * The bearer token may also come as a `token` form field, as Sync v8 and older documented it
   * (sync-interface §5.1). Set from the dialect by the route table, never by hand, so every
   * v8-and-older route has it and no other route does. Everywhere the token comes only in the
   * Authorization header: never in the query string, never as an `access_token` field.
   */
  readonly formToken?: boolean;
  /**
   * The first generation's token places: a `token` or `api_token` parameter in the query string
   * OR the form (its clients put it in URLs: `/API/getProjects?token=...`). Set from the dialect
   * by the route table, like formToken, and only for the first-generation dialect. The edge
   * takes the parameter out of what it forwards, and the gateway logs no URLs, so the token goes
   * no further than the bearer check. `access_token` is never read, here or anywhere.
   */
  readonly legacyToken?: boolean;
  /**
   * A GET here may write (the first generation's addItem, completeItems, sync...): it is not
   * resent to another replica when the first falls silent, as reads are.
   */
  readonly writesOnGet?: boolean;
  /**
   * Running this write twice does what running it once does (revoking a token, RFC 7009), so it
   * is resent to another replica when the first falls silent, like a read.
   */
  readonly idempotent?: boolean;
  /** Overrides the request timeout (uploads take minutes). */
  readonly timeoutMs?: number;
  /**
   * How a multipart/form-data body is taken (without this flag it is refused, 415):
   * `inline`: parsed whole at the edge (one file of at most 1 MiB, 20 fields of at most 64 KiB)
   * into a plain body: fields as strings, the file's content as UTF-8 text under its field name.
   * `stream`: an upload; the file part is streamed into the blob store and the edge request
   * carries `upload` (its key) instead of the bytes (gateway/src/uploads).
   */
  readonly multipart?: 'inline' | 'stream';
  /**
   * A `stream` route's own ceiling in bytes (an account import), instead of the caller's plan
   * `upload_limit_mb` asked of the uploads service: the file is not an upload.
   */
  readonly streamLimitBytes?: number;
  /**
   * Request headers (lower-case names) a bearer route forwards to its service, which would
   * otherwise get none: the assistant server checks Origin and reads the MCP protocol version.
   * Never the Authorization header: the principal says who is calling.
   */
  readonly forwardHeaders?: readonly string[];
  /**
   * A refused token is answered with RFC 9728's challenge (`resource_metadata` in
   * WWW-Authenticate), which tells an assistant where to start authorising.
   */
  readonly challenge?: 'protected-resource';
}
