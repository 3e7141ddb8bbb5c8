import { DomainError } from '@doable/shared-errors';

/**
 * Failures of the infrastructure, not of the request: the database or the message bus is
 * down, restarting or refusing connections. Such a request did nothing (its transaction rolled
 * back) and succeeds when sent again, so callers get a request-level 503 with Retry-After,
 * which clients retry, never a per-command 500, which clients take as final.
 */

/** Socket errors: the server is not there (any more). */
const NETWORK_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * SQLSTATEs of an unavailable server: class 08 (connection exception), 57P01 admin shutdown,
 * 57P02 crash shutdown, 57P03 cannot connect now (starting up or in recovery), 53300 too many
 * connections.
 */
const UNAVAILABLE_SQLSTATES: ReadonlySet<string> = new Set(['57P01', '57P02', '57P03', '53300']);

/** What node-postgres and its pool say, without a code, when the connection is gone. */
const LOST_CONNECTION_MESSAGES = /Connection terminated|connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect|Connection timed out|the database system is (starting up|shutting down|in recovery)/i;

function isUnavailableError(err: object): boolean {
  if (err instanceof DomainError) return err.code === 'SERVICE_UNAVAILABLE';
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  const message = (err as { message?: unknown }).message;
  return typeof message === 'string' && LOST_CONNECTION_MESSAGES.test(message);
}

/** True when the error (or what it wraps: TypeORM's driverError, a cause, an AggregateError) is an outage. */
export function isInfrastructureFailure(err: unknown, depth = 0): boolean {
  if (typeof err !== 'object' || err === null || depth > 4) return false;
  if (isUnavailableError(err)) return true;
  const wrapped = err as { driverError?: unknown; cause?: unknown; errors?: unknown; error?: unknown };
  const inner = [wrapped.driverError, wrapped.cause, wrapped.error, ...(Array.isArray(wrapped.errors) ? (wrapped.errors as unknown[]) : [])];
  return inner.some((candidate) => candidate !== err && isInfrastructureFailure(candidate, depth + 1));
}

/** Seconds a client is asked to wait before retrying a request refused for an outage. */
export const OUTAGE_RETRY_AFTER_SECONDS = 1;

/** The coded error a caller sees for an outage: 503 SERVICE_UNAVAILABLE, reason `infrastructure`. */
export function infrastructureUnavailable(err: unknown): DomainError {
  if (err instanceof DomainError && err.code === 'SERVICE_UNAVAILABLE') return err;
  return new DomainError('SERVICE_UNAVAILABLE', 'A backing service is unavailable; retry shortly', { reason: 'infrastructure', retry_after: OUTAGE_RETRY_AFTER_SECONDS });
}
