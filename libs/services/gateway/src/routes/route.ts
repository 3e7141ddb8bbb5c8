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
  /** Overrides the request timeout (uploads take minutes). */
  readonly timeoutMs?: number;
}
