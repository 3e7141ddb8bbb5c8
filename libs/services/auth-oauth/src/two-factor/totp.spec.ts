import { codeAt, hashRecoveryCode, matchingStep, newRecoveryCodes, newTotpSecret, normaliseRecoveryCode, normaliseTotpCode, otpauthUri, stepAt } from './totp';

/** RFC 6238 appendix B's SHA-1 key ("12345678901234567890"), in base32. */
const RFC_KEY = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('TOTP codes', () => {
  it("matches RFC 6238's test vectors (last six digits)", () => {
    expect(codeAt(RFC_KEY, 59_000)).toBe('287082');
    expect(codeAt(RFC_KEY, 1_111_111_109_000)).toBe('081804');
    expect(codeAt(RFC_KEY, 2_000_000_000_000)).toBe('279037');
  });

  it('finds the step of a code within one step either side, and nothing further', () => {
    const now = 1_111_111_109_000;
    expect(matchingStep(RFC_KEY, codeAt(RFC_KEY, now), now)).toBe(stepAt(now));
    expect(matchingStep(RFC_KEY, codeAt(RFC_KEY, now - 30_000), now)).toBe(stepAt(now) - 1);
    expect(matchingStep(RFC_KEY, codeAt(RFC_KEY, now + 30_000), now)).toBe(stepAt(now) + 1);
    expect(matchingStep(RFC_KEY, codeAt(RFC_KEY, now - 60_000), now)).toBeUndefined();
    expect(matchingStep(RFC_KEY, codeAt(RFC_KEY, now + 60_000), now)).toBeUndefined();
  });

  it('takes codes as apps show them and refuses anything else', () => {
    expect(normaliseTotpCode(' 123 456 ')).toBe('123456');
    for (const bad of ['12345', '1234567', '12a456', '', '１２３４５６']) expect(normaliseTotpCode(bad)).toBeUndefined();
  });

  it('makes 160-bit base32 keys and the URI apps scan', () => {
    const key = newTotpSecret();
    expect(key).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUri(key, 'a+b@example.test')).toBe(`otpauth://totp/Doable:a%2Bb%40example.test?issuer=Doable&secret=${key}&algorithm=SHA1&digits=6&period=30`);
  });
});

describe('recovery codes', () => {
  it('are ten distinct XXXXX-XXXXX codes without look-alike characters', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[A-HJKMNP-Z2-9]{5}-[A-HJKMNP-Z2-9]{5}$/);
  });

  it('are compared in one form and hashed, whatever the case, spaces and dash', () => {
    const [code] = newRecoveryCodes(1);
    const forms = [code, code.toLowerCase(), code.replace('-', ''), ` ${code.replace('-', ' ')} `];
    expect(new Set(forms.map((form) => hashRecoveryCode(normaliseRecoveryCode(form)!))).size).toBe(1);
    expect(hashRecoveryCode(normaliseRecoveryCode(code)!)).toMatch(/^[0-9a-f]{64}$/);
    for (const bad of ['ABCDE-FGHJ', 'ABCDE-FGHJ01', 'ABCDE-FGHIK', '123456']) expect(normaliseRecoveryCode(bad)).toBeUndefined();
  });
});
