import { ERROR_CATALOG } from './error-catalog';
import type { DomainError } from './domain-error';

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
