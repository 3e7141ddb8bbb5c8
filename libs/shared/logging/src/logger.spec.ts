import { QueryFailedError } from 'typeorm';
import { createLogger, isSecretKey, REDACTED, redactSecrets } from './logger';
import { PRODUCT_VERSION } from './product-version';

/** A logger writing JSON lines into an array, as pino writes them to stdout. */
function capture(level = 'info') {
  const lines: string[] = [];
  const logger = createLogger('test', level, { write: (line: string) => void lines.push(line) });
  return { logger, lines, last: () => JSON.parse(lines[lines.length - 1]) as Record<string, unknown> };
}

const SECRET = 'secret-value-0123456789abcdef';

describe('log lines', () => {
  it("name the service and the release on every line, a child logger's too", () => {
    const { logger, lines } = capture();
    logger.info('root');
    logger.child({ context: 'child' }).warn('child');
    expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ service: 'test', version: PRODUCT_VERSION, msg: 'root' }),
      expect.objectContaining({ service: 'test', version: PRODUCT_VERSION, msg: 'child' }),
    ]);
  });
});

describe('logger redaction', () => {
  it.each([
    'personal_token',
    'personalToken',
    'code',
    'code_verifier',
    'codeVerifier',
    'csrf',
    'client_secret',
    'clientSecret',
    'access_token',
    'accessToken',
    'password',
    'current_password',
    'token',
    'newToken',
    'authorization',
    'Authorization',
    'cookie',
    'set-cookie',
  ])('never writes the value of %s, at the top or nested deep', (key) => {
    const { logger, lines } = capture();
    logger.info({ [key]: SECRET, request: { body: { [key]: SECRET, list: [{ deeper: { [key]: SECRET } }] } } }, 'a request');
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain(SECRET);
    expect(JSON.parse(lines[0])).toMatchObject({ [key]: REDACTED, request: { body: { [key]: REDACTED, list: [{ deeper: { [key]: REDACTED } }] } } });
  });

  it('keeps an error code under `code` (domain, PostgreSQL, Node) but not an authorization code', () => {
    const { logger, last } = capture();
    const failure = Object.assign(new Error('deadlock'), { code: '40P01' });
    logger.error({ err: failure, domain: { code: 'ITEM_NOT_FOUND' }, socket: { code: 'ECONNREFUSED' }, exit: { code: 78 }, oauth: { code: SECRET } }, 'failed');
    expect(last()).toMatchObject({ err: { code: '40P01' }, domain: { code: 'ITEM_NOT_FOUND' }, socket: { code: 'ECONNREFUSED' }, exit: { code: 78 }, oauth: { code: REDACTED } });
  });

  it('redacts second factors whatever their shape (a TOTP code looks like a numeric error code)', () => {
    const redacted = redactSecrets({ body: { otp: '123456', recovery_code: 'ABCDE23456', recoveryCodes: ['ABCDE-23456'] } });
    expect(redacted).toEqual({ body: { otp: REDACTED, recovery_code: REDACTED, recoveryCodes: REDACTED } });
  });

  it('keeps what is not secret: error codes, token types, counts, the message', () => {
    const { logger, last } = capture();
    logger.warn({ error_code: 401, errorCode: 35, token_type: 'Bearer', tokenKind: 'oauth', tokens: 3, status: 'ok' }, 'kept');
    expect(last()).toMatchObject({ error_code: 401, errorCode: 35, token_type: 'Bearer', tokenKind: 'oauth', tokens: 3, status: 'ok', msg: 'kept', service: 'test' });
  });

  it("redacts child-logger bindings and an error's extra fields, and keeps the error's message and stack", () => {
    const { logger, last } = capture();
    const child = logger.child({ auth: { headers: { cookie: SECRET } } });
    const error = Object.assign(new Error('exchange failed'), { details: { client_secret: SECRET } });
    child.error({ err: error }, 'boom');
    const line = last();
    expect(JSON.stringify(line)).not.toContain(SECRET);
    expect(line).toMatchObject({ auth: { headers: { cookie: REDACTED } }, err: { message: 'exchange failed', details: { client_secret: REDACTED } } });
    expect(String((line['err'] as { stack: string }).stack)).toContain('exchange failed');
  });

  it("never changes the caller's object, copies nothing when there is nothing to hide, and survives cycles", () => {
    const body: Record<string, unknown> = { password: SECRET, nested: { ok: 1 } };
    body['self'] = body;
    const redacted = redactSecrets(body);
    expect(body['password']).toBe(SECRET);
    expect(redacted['password']).toBe(REDACTED);
    const clean = { a: { b: [1, 2, { c: 'd' }] } };
    expect(redactSecrets(clean)).toBe(clean);
  });

  it('cuts off objects nested past the search depth instead of writing them unsearched', () => {
    let deep: Record<string, unknown> = { token: SECRET };
    for (let i = 0; i < 40; i++) deep = { next: deep };
    expect(JSON.stringify(redactSecrets(deep))).not.toContain(SECRET);
  });

  it.each([
    ['sync_token', true],
    ['webhookSecret', true],
    ['error_code', false],
    ['token_type', false],
    ['tokenHash', false],
  ])('isSecretKey(%j) is %s', (key, secret) => {
    expect(isSecretKey(key)).toBe(secret);
  });
});

describe('logged database errors', () => {
  const HASH = 'scrypt$16384$8$1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA';
  const SALT = 'c2FsdHNhbHRzYWx0';

  /** What TypeORM throws when an INSERT fails: the statement and its positional parameters ride on the error. */
  function failedSignUp(): QueryFailedError {
    const driverError = Object.assign(new Error('duplicate key value violates unique constraint "users_email_key"'), {
      code: '23505',
      detail: 'Key (email)=(ada@example.com) already exists.',
      constraint: 'users_email_key',
      table: 'users',
    });
    return new QueryFailedError('INSERT INTO "auth"."users"("email", "password_hash", "salt") VALUES ($1, $2, $3)', ['ada@example.com', HASH, SALT], driverError);
  }

  it.each([
    ['under err', (error: Error) => ({ err: error }), true],
    ['nested elsewhere', (error: Error) => ({ failure: { attempt: 1, error } }), true],
    // pino folds a cause into the message and stack only, so its fields are not there to keep.
    ['as the cause of another error', (error: Error) => ({ err: new Error('sign-up failed', { cause: error }) }), false],
  ])('never writes the query or its parameters (%s), and keeps what an operator needs', (_where, wrap, keepsFields) => {
    const { logger, lines } = capture();
    logger.error(wrap(failedSignUp()), 'sign-up failed');
    expect(lines).toHaveLength(1);
    for (const leaked of [HASH, SALT, 'ada@example.com', 'INSERT INTO']) expect(lines[0]).not.toContain(leaked);
    expect(lines[0]).toContain('users_email_key');
    if (keepsFields) expect(lines[0]).toContain('23505');
  });

  it('names the error by its class and keeps its message and stack', () => {
    const { logger, last } = capture();
    logger.error({ err: failedSignUp() }, 'sign-up failed');
    expect(last()['err']).toMatchObject({ type: 'QueryFailedError', message: expect.stringContaining('duplicate key') as unknown, stack: expect.stringContaining('QueryFailedError') as unknown });
  });
});
