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
  /** Overrides the request timeout (uploads take minutes). */
  readonly timeoutMs?: number;
}
