import { SCOPES } from '@doable/contracts-common';
import { parseScopes, SCOPE_DESCRIPTIONS } from './oauth-scopes';

describe('parseScopes', () => {
  it('reads a comma-separated list, in catalogue order, without duplicates', () => {
    expect(parseScopes('data:delete,data:read,data:read')).toEqual(['data:read', 'data:delete']);
  });

  it('accepts spaces as separators (RFC 6749 style)', () => {
    expect(parseScopes('task:add data:read')).toEqual(['task:add', 'data:read']);
  });

  it.each([
    ['an empty string', ''],
    ['only separators', ' , '],
    ['an unknown scope', 'data:read,data:everything'],
    ['a scope of another product', 'billing:read'],
    ['a non-string', ['data:read']],
    ['nothing', undefined],
  ])('refuses %s', (_label, raw) => {
    expect(parseScopes(raw)).toBeUndefined();
  });

  it('describes every scope in plain words', () => {
    for (const scope of SCOPES) expect(SCOPE_DESCRIPTIONS[scope].length).toBeGreaterThan(10);
  });
});
