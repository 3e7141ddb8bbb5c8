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
 * One place deciding how loud a refusal at the edge is. A client's bad request is the
 * client's fault: info for malformed requests, debug for the everyday refusals (unknown token,
 * unknown route, validation). Only a service being unreachable (warn) and an unexpected error
 * (error, with its stack) concern the operator.
 */
export function logEdgeRefusal(logger: Logger, domain: DomainError, cause: unknown): void {
  if (domain.code === 'INTERNAL') logger.error({ err: cause }, 'unhandled error at the edge');
  else if (domain.code === 'SERVICE_UNAVAILABLE') logger.warn({ extra: domain.extra }, 'upstream unavailable');
  else if (MALFORMED_REQUEST.has(domain.code)) logger.info({ code: domain.code, reason: domain.message }, 'request refused as malformed');
  else logger.debug({ code: domain.code }, 'request refused');
}
