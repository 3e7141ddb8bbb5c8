import type { Principal } from '@doable/contracts-common';
import type { RestSurface } from '@doable/contracts-rest';

/** One REST request as the resource handlers see it, whatever surface it came in on. */
export interface RestCall {
  readonly surface: RestSurface;
  readonly operation: string;
  readonly principal: Principal;
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string | string[]>>;
  readonly body: Readonly<Record<string, unknown>>;
  /** `X-Request-Id`: makes a write idempotent (mapped onto the sync command uuid log). */
  readonly requestId: string | null;
  /** The origin the caller reached (the gateway's), for the push channel's address in the user object. */
  readonly origin?: string;
}
