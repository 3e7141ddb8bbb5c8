import { DomainError } from '@doable/shared-errors';

/** What body-parser (and raw-body, zlib under it) throws: an http-errors object with a type. */
interface ParserFailure {
  readonly type?: string;
  readonly status?: number;
  readonly expose?: boolean;
  readonly code?: string;
  readonly charset?: string;
  readonly encoding?: string;
  readonly limit?: number;
}

/** body-parser's error types, each as its own code. */
const BY_TYPE: Readonly<Record<string, (failure: ParserFailure) => DomainError>> = {
  'entity.parse.failed': () => new DomainError('INVALID_JSON'),
  'entity.too.large': (failure) =>
    new DomainError('PAYLOAD_TOO_LARGE', `Request body exceeds ${failure.limit ?? 'the limit of'} bytes`, failure.limit === undefined ? {} : { limit: failure.limit }),
  'parameters.too.many': () => new DomainError('TOO_MANY_PARAMETERS', 'A form body holds at most 10,000 parameters', { limit: 10_000 }),
  'querystring.parse.rangeError': () => new DomainError('BODY_TOO_DEEP'),
  'encoding.unsupported': (failure) =>
    new DomainError('UNSUPPORTED_MEDIA_TYPE', `Unsupported content encoding${failure.encoding ? ` "${failure.encoding}"` : ''}`, { accepted: ['identity', 'gzip', 'deflate', 'br'] }),
  'charset.unsupported': (failure) => new DomainError('UNSUPPORTED_MEDIA_TYPE', `Unsupported charset${failure.charset ? ` "${failure.charset}"` : ''}`, { accepted: ['utf-8'] }),
  'request.aborted': () => new DomainError('BAD_REQUEST', 'Request aborted'),
  'request.size.invalid': () => new DomainError('BAD_REQUEST', 'Request body length does not match Content-Length'),
};

/**
 * A body the parsers refused, as the client fault it is: each gets its own code (400, 413 or
 * 415), never a 500. Anything else the parsers mark as a client error (status 4xx, `expose`)
 * becomes BAD_REQUEST; `undefined` means the error did not come from body parsing.
 */
export function bodyParserError(err: unknown): DomainError | undefined {
  if (err === null || typeof err !== 'object') return undefined;
  const failure = err as ParserFailure;
  const byType = failure.type === undefined ? undefined : BY_TYPE[failure.type];
  if (byType) return byType(failure);
  // zlib's errors (gzip/deflate: Z_DATA_ERROR, Z_BUF_ERROR; brotli: ERR__ERROR_FORMAT_*) come through raw-body as 400s.
  if (typeof failure.code === 'string' && /^(Z_|ERR__ERROR_|ERR_BROTLI)/.test(failure.code)) return new DomainError('INVALID_CONTENT_ENCODING');
  if (failure.expose === true && typeof failure.status === 'number' && failure.status >= 400 && failure.status < 500 && err instanceof Error) {
    if (failure.status === 413) return new DomainError('PAYLOAD_TOO_LARGE');
    if (failure.status === 415) return new DomainError('UNSUPPORTED_MEDIA_TYPE');
    return new DomainError('BAD_REQUEST', 'The request body could not be read');
  }
  return undefined;
}
