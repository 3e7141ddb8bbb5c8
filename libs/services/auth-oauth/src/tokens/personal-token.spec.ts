import { homeKey, homeKeyOfToken, SCOPES } from '@doable/contracts-common';
import { generatePersonalToken, PERSONAL_TOKEN_SCOPES } from './personal-token';

describe('generatePersonalToken', () => {
  it('makes 40 lower-case hex characters, as clients check', () => {
    const token = generatePersonalToken('42');
    expect(token).toMatch(/^[0-9a-f]{40}$/);
  });

  it('makes a different token each time', () => {
    const tokens = Array.from({ length: 50 }, () => generatePersonalToken('42'));
    expect(new Set(tokens).size).toBe(50);
    tokens.forEach((token) => expect(token).toMatch(/^[0-9a-f]{40}$/));
  });

  it("ends with the user's home key, where a balancer reads it; the rest is random", () => {
    const tokens = ['7', '7', '123456789'].map((userId) => ({ userId, token: generatePersonalToken(userId) }));
    for (const { userId, token } of tokens) expect(homeKeyOfToken(token)).toBe(homeKey(userId));
    expect(tokens[0].token.slice(0, 32)).not.toBe(tokens[1].token.slice(0, 32));
  });
});

describe('PERSONAL_TOKEN_SCOPES', () => {
  it('holds every scope', () => {
    expect([...PERSONAL_TOKEN_SCOPES].sort()).toEqual([...SCOPES].sort());
  });
});
