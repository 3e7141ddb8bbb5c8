import { DomainError } from './domain-error';
import { domainErrorFromBody, todoistErrorBody } from './todoist-error-body';

describe('todoistErrorBody', () => {
  it.each([
    ['INVALID_ARGUMENT_VALUE', 20, 'INVALID_ARGUMENT_VALUE', 400],
    ['ARGUMENT_MISSING', 19, 'ARGUMENT_MISSING', 400],
    ['INVALID_TEMP_ID', 15, 'INVALID_TEMPID', 400],
    ['AUTH_REQUIRED', 401, 'AUTH_INVALID_TOKEN', 401],
    ['PROJECT_NOT_FOUND', 21, 'PROJECT_NOT_FOUND', 404],
    ['ROUTE_NOT_FOUND', 404, 'NOT_FOUND', 404],
    ['EMAIL_ALREADY_EXISTS', 409, 'ALREADY_REGISTERED', 409],
    ['RATE_LIMITED', 35, 'LIMITS_REACHED', 429],
    ['INTERNAL', 500, 'INTERNAL_SERVER_ERROR', 500],
    ['SERVICE_UNAVAILABLE', 503, 'SERVICE_UNAVAILABLE', 503],
  ] as const)('writes %s as error_code %d, error_tag %s, http_code %d', (code, errorCode, tag, http) => {
    expect(todoistErrorBody(new DomainError(code, 'the message', { argument: 'a' }))).toEqual({
      error: 'the message',
      error_code: errorCode,
      error_extra: { argument: 'a' },
      error_tag: tag,
      http_code: http,
    });
  });

  it('uses the catalogue message when the error has none of its own', () => {
    expect(todoistErrorBody(new DomainError('RATE_LIMITED')).error).toBe('Too many requests. Limits reached. Try again later');
  });

  it('adds the correlation id as error_extra.event_id', () => {
    const body = todoistErrorBody(new DomainError('INTERNAL', undefined, { remoteCode: 'X' }), 'req-123');
    expect(body.error_extra).toEqual({ remoteCode: 'X', event_id: 'req-123' });
  });

  it.each([undefined, ''])('adds no event_id without a correlation id (%j)', (correlationId) => {
    const body = todoistErrorBody(new DomainError('NOT_FOUND', 'gone', { id: '1' }), correlationId);
    expect(body.error_extra).toEqual({ id: '1' });
    expect(body.error_extra).not.toHaveProperty('event_id');
  });

  it('does not write the correlation id into the error itself', () => {
    const err = new DomainError('INTERNAL', undefined, { remoteCode: 'X' });
    todoistErrorBody(err, 'req-123');
    expect(err.extra).toEqual({ remoteCode: 'X' });
  });

  it.each(['ITEM_NOT_FOUND', 'INVALID_TEMP_ID', 'FORBIDDEN', 'LABEL_ALREADY_EXISTS'] as const)('reads %s back from its body', (code) => {
    const back = domainErrorFromBody(todoistErrorBody(new DomainError(code, 'why', { argument: 'x' })));
    expect(back).toMatchObject({ code, message: 'why', extra: { argument: 'x' } });
  });

  it('reads an unknown tag back as an internal error', () => {
    expect(domainErrorFromBody({ error_tag: 'NO_SUCH_TAG', error_code: 7 }).code).toBe('INTERNAL');
  });
});
