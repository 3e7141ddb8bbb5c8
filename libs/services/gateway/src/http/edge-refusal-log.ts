import type { DomainError, ErrorCode } from '@doable/shared-errors';
import type { Logger } from '@doable/shared-logging';

/** Malformed requests: worth seeing in the logs (a client or a fuzzer misbehaving), never worth paging. */
const MALFORMED_REQUEST = new Set<ErrorCode>([
  'BODY_TOO_DEEP',
  'BODY_NOT_OBJECT',
  'INVALID_UTF8',
  'INVALID_CONTENT_ENCODING',
  'INVALID_JSON',
  'TOO_MANY_PARAMETERS',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'HEADERS_TOO_LARGE',
  'BODY_INCOMPLETE',
  'REQUEST_TIMEOUT',
]);

/**
 * Errors that only say the client went away before its answer: Express's `res.sendFile` when the
 * browser drops a download ("Request aborted", ECONNABORTED), a reset socket, a stream cut short.
 * Nobody is left to answer and nothing went wrong on this side (issue #44: a closed tab was logged
 * as an unhandled error with its stack).
 */
const CLIENT_GONE = new Set(['ECONNABORTED', 'ECONNRESET', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE']);

export function clientWentAway(cause: unknown): boolean {
  if (cause === null || typeof cause !== 'object') return false;
  const { code, type } = cause as { code?: unknown; type?: unknown };
  return (typeof code === 'string' && CLIENT_GONE.has(code)) || type === 'request.aborted';
}

/**
 * One place deciding how loud a refusal at the edge is. A client's bad request is the
 * client's fault: info for malformed requests, debug for the everyday refusals (unknown token,
 * unknown route, validation). Only a service being unreachable (warn) and an unexpected error
 * (error, with its stack) concern the operator. A client that left is debug.
 */
export function logEdgeRefusal(logger: Logger, domain: DomainError, cause: unknown): void {
  if (clientWentAway(cause)) logger.debug({ code: (cause as { code?: string }).code ?? domain.code }, 'client went away before its answer');
  else if (domain.code === 'INTERNAL') logger.error({ err: cause }, 'unhandled error at the edge');
  else if (domain.code === 'SERVICE_UNAVAILABLE') logger.warn({ extra: domain.extra }, 'upstream unavailable');
  else if (MALFORMED_REQUEST.has(domain.code)) logger.info({ code: domain.code, reason: domain.message }, 'request refused as malformed');
  else logger.debug({ code: domain.code }, 'request refused');
}
