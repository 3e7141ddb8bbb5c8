import { DomainError, toWireError } from './domain-error';
import { ERROR_CATALOG, type ErrorCode } from './error-catalog';

describe('DomainError', () => {
  it('carries its code, message and extra', () => {
    const err = new DomainError('PROJECT_NOT_FOUND', 'Parent project not found', { argument: 'parent_id' });
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe('DomainError');
    expect(err.code).toBe('PROJECT_NOT_FOUND');
    expect(err.message).toBe('Parent project not found');
    expect(err.extra).toEqual({ argument: 'parent_id' });
  });

  it('takes the catalogue message and an empty extra by default', () => {
    const err = new DomainError('TOO_MANY_COMMANDS');
    expect(err.message).toBe(ERROR_CATALOG.TOO_MANY_COMMANDS.message);
    expect(err.extra).toEqual({});
  });

  it('writes itself as plain data', () => {
    const wire = new DomainError('INVALID_ARGUMENT_VALUE', 'Invalid argument value: name', { argument: 'name' }).toWire();
    expect(wire).toEqual({ code: 'INVALID_ARGUMENT_VALUE', message: 'Invalid argument value: name', extra: { argument: 'name' } });
    expect(wire).not.toBeInstanceOf(Error);
    expect(JSON.parse(JSON.stringify(wire))).toEqual(wire);
  });

  it.each(Object.keys(ERROR_CATALOG) as ErrorCode[])('round-trips %s through the wire', (code) => {
    const original = new DomainError(code, `message for ${code}`, { argument: 'x', max_count: 100 });
    const copy = DomainError.fromWire(JSON.parse(JSON.stringify(original.toWire())));
    expect(copy).toBeInstanceOf(DomainError);
    expect(copy.code).toBe(code);
    expect(copy.message).toBe(`message for ${code}`);
    expect(copy.extra).toEqual({ argument: 'x', max_count: 100 });
  });

  it('reads a wire error without extra as an empty extra', () => {
    const err = DomainError.fromWire({ code: 'NOT_FOUND', message: 'gone' });
    expect(err.code).toBe('NOT_FOUND');
    expect(err.extra).toEqual({});
  });

  it('turns a code this build does not know into INTERNAL, keeping the message and the remote code', () => {
    const err = DomainError.fromWire({ code: 'QUOTA_EXCEEDED', message: 'Quota exceeded', extra: { limit: 3 } });
    expect(err).toBeInstanceOf(DomainError);
    expect(err.code).toBe('INTERNAL');
    expect(err.message).toBe('Quota exceeded');
    expect(err.extra).toEqual({ remoteCode: 'QUOTA_EXCEEDED' });
  });

  it.each(['toString', 'constructor', '__proto__', 'hasOwnProperty'])('does not take the inherited property %s for a known code', (code) => {
    const err = DomainError.fromWire({ code, message: 'odd' });
    expect(err.code).toBe('INTERNAL');
    expect(err.extra).toEqual({ remoteCode: code });
  });
});

describe('toWireError', () => {
  it('writes a DomainError as its wire form', () => {
    expect(toWireError(new DomainError('FORBIDDEN', 'Not yours', { project_id: '1' }))).toEqual({ code: 'FORBIDDEN', message: 'Not yours', extra: { project_id: '1' } });
  });

  it('passes a wire error with a known code through', () => {
    const wire = { code: 'RATE_LIMITED', message: 'slow down', extra: { retry_after: 5 } };
    expect(toWireError(wire)).toEqual(wire);
  });

  it.each([
    ['a plain Error', new Error('connect ECONNREFUSED 10.0.0.5:5432 password=hunter2')],
    ['a TypeError', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a Node system error', Object.assign(new Error('ENOENT: /etc/doable/secret'), { code: 'ENOENT' })],
    ['a wire error with an unknown code', { code: 'QUOTA_EXCEEDED', message: 'internal detail' }],
    ['a string', 'boom'],
    ['undefined', undefined],
    ['null', null],
  ])('hides %s behind INTERNAL with the catalogue message', (_label, thrown) => {
    expect(toWireError(thrown)).toEqual({ code: 'INTERNAL', message: ERROR_CATALOG.INTERNAL.message });
  });
});
