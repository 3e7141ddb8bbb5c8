import { SCOPES } from '@doable/contracts-common';
import { generatePersonalToken, PERSONAL_TOKEN_SCOPES } from './personal-token';

describe('generatePersonalToken', () => {
  it('makes 40 lower-case hex characters, as clients check', () => {
    const token = generatePersonalToken();
    expect(token).toMatch(/^[0-9a-f]{40}$/);
  });

  it('makes a different token each time', () => {
    const tokens = Array.from({ length: 50 }, () => generatePersonalToken());
    expect(new Set(tokens).size).toBe(50);
    tokens.forEach((token) => expect(token).toMatch(/^[0-9a-f]{40}$/));
  });
});

describe('PERSONAL_TOKEN_SCOPES', () => {
  it('holds every scope', () => {
    expect([...PERSONAL_TOKEN_SCOPES].sort()).toEqual([...SCOPES].sort());
  });
});
