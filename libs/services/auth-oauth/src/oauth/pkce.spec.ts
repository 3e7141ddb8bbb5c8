import { isS256Challenge, verifiesS256 } from './pkce';

// A fixed pair: challenge = BASE64URL(SHA256(verifier)), computed independently with node:crypto.
const VERIFIER = 'dBjftJeZ4CVP-mJ92K27uhbUJU1p1r_wW1gFWFOEjXk';
const CHALLENGE = 'ngF5GsXcbwljx6u133FFr3Xht9xooA_DuaX_3QwODtc';

describe('PKCE S256', () => {
  it('verifies a verifier against its challenge', () => {
    expect(isS256Challenge(CHALLENGE)).toBe(true);
    expect(verifiesS256(VERIFIER, CHALLENGE)).toBe(true);
  });

  it.each([
    ['another verifier', 'dBjftJeZ4CVP-mJ92K27uhbUJU1p1r_wW1gFWFOEjXa'],
    ['a verifier that is too short', 'short'],
    ['a verifier with illegal characters', `${VERIFIER.slice(0, 42)}!`],
    ['no verifier', undefined],
  ])('refuses %s', (_label, verifier) => {
    expect(verifiesS256(verifier, CHALLENGE)).toBe(false);
  });

  it.each(['', 'plain-text', `${CHALLENGE}=`, CHALLENGE.slice(1)])('refuses %j as an S256 challenge', (challenge) => {
    expect(isS256Challenge(challenge)).toBe(false);
  });
});
