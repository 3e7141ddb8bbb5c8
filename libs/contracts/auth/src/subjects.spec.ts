import { changeCredentials } from './subjects';

describe('changeCredentials request', () => {
  const parse = (request: Record<string, unknown>) => changeCredentials.request.safeParse({ userId: '7', currentPassword: null, email: 'a@example.test', ...request }).success;

  it('takes the sync command uuid, and goes without it (callers that predate it)', () => {
    expect(parse({ uuid: 'a5b1f2c0-9d3e-4c6b-8f7a-1e2d3c4b5a69' })).toBe(true);
    expect(parse({})).toBe(true);
  });

  it.each([
    ['an empty uuid', ''],
    ['a uuid longer than the Sync API allows', 'u'.repeat(65)],
    ['a uuid that cannot be stored', 'a\u0000b'],
    ['a number', 7],
  ])('refuses %s', (_case, uuid) => {
    expect(parse({ uuid })).toBe(false);
  });
});
