import { ERROR_CATALOG, type ErrorCode } from './error-catalog';
import { DomainError } from './domain-error';

/** The Todoist error object: the body of a failed request and the value of a failed `sync_status`. */
export interface TodoistErrorBody {
  error: string;
  error_code: number;
  error_extra: Record<string, unknown>;
  error_tag: string;
  http_code: number;
}

export function todoistErrorBody(err: DomainError, correlationId?: string): TodoistErrorBody {
  const entry = ERROR_CATALOG[err.code];
  const extra = correlationId ? { ...err.extra, event_id: correlationId } : err.extra;
  return { error: err.message, error_code: entry.errorCode, error_extra: extra, error_tag: entry.tag, http_code: entry.http };
}

/**
 * The domain error a Todoist error body stands for (a refused command's `sync_status`, read
 * back by a dialect that answers with HTTP statuses). An unknown tag is an internal error.
 */
export function domainErrorFromBody(body: Partial<TodoistErrorBody>): DomainError {
  const code = (Object.keys(ERROR_CATALOG) as ErrorCode[]).find((candidate) => ERROR_CATALOG[candidate].tag === body.error_tag && ERROR_CATALOG[candidate].errorCode === body.error_code);
  if (!code) return new DomainError('INTERNAL', undefined, { remoteTag: body.error_tag });
  return new DomainError(code, typeof body.error === 'string' ? body.error : undefined, body.error_extra ?? {});
}
