import { DomainError, ERROR_CATALOG, todoistErrorBody } from '@doable/shared-errors';
import { currentCorrelationId } from '@doable/shared-logging';
import { HttpException } from '@nestjs/common';
import { bodyParserError } from './body-parser-errors';

export interface HttpResponseLike {
  status(code: number): HttpResponseLike;
  setHeader(name: string, value: string): unknown;
  json(body: unknown): unknown;
  headersSent?: boolean;
}

/** Errors raised by the HTTP stack itself (body parsing, Nest routing) as domain codes. */
export function toDomainError(err: unknown): DomainError {
  if (err instanceof DomainError) return err;
  const bodyError = bodyParserError(err);
  if (bodyError) return bodyError;
  if (err instanceof HttpException) {
    switch (err.getStatus()) {
      case 401:
        return new DomainError('AUTH_REQUIRED');
      case 403:
        return new DomainError('FORBIDDEN');
      case 404:
        return new DomainError('ROUTE_NOT_FOUND');
      case 413:
        return new DomainError('PAYLOAD_TOO_LARGE');
      default:
        if (err.getStatus() < 500) return new DomainError('INVALID_ARGUMENT_VALUE', err.message);
    }
  }
  return new DomainError('INTERNAL');
}

/**
 * The gateway's one error mapper: a coded error becomes its HTTP status and the Todoist error
 * body. Unknown errors become 500 with the correlation id and nothing of their internals.
 */
export function writeHttpError(res: HttpResponseLike, err: unknown, authChallenge = 'Bearer'): void {
  const domain = toDomainError(err);
  const correlationId = currentCorrelationId();
  const body = todoistErrorBody(domain, domain.code === 'INTERNAL' ? correlationId : undefined);
  if (res.headersSent) return;
  if (domain.code === 'RATE_LIMITED' && typeof domain.extra['retry_after'] === 'number') res.setHeader('Retry-After', String(domain.extra['retry_after']));
  // An outage (a service, the database or the bus down): clients retry a 503 after Retry-After.
  if (domain.code === 'SERVICE_UNAVAILABLE') res.setHeader('Retry-After', String(typeof domain.extra['retry_after'] === 'number' ? domain.extra['retry_after'] : 1));
  if (domain.code === 'AUTH_REQUIRED') res.setHeader('WWW-Authenticate', authChallenge);
  if (domain.code === 'METHOD_NOT_ALLOWED' && Array.isArray(domain.extra['allowed'])) res.setHeader('Allow', (domain.extra['allowed'] as string[]).join(', '));
  res.status(ERROR_CATALOG[domain.code].http).json(body);
}
