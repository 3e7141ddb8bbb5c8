import { PUSH_TOKEN_LIFETIME_MS, signPushToken, verifyPushToken, websocketUrl } from './push-token';

const KEY = 'k'.repeat(64);
const NOW = Date.parse('2026-03-01T12:00:00Z');

describe('push tokens', () => {
  it('verify answers the user the token was signed for, until it expires', () => {
    const token = signPushToken(KEY, '42', NOW);
    expect(verifyPushToken(KEY, token, NOW)).toBe('42');
    expect(verifyPushToken(KEY, token, NOW + PUSH_TOKEN_LIFETIME_MS - 1000)).toBe('42');
    expect(verifyPushToken(KEY, token, NOW + PUSH_TOKEN_LIFETIME_MS + 1000)).toBeUndefined();
  });

  it('refuses a token signed with another key, or with its user, expiry or signature changed', () => {
    const token = signPushToken(KEY, '42', NOW);
    const [userId, expiresAt, signature] = token.split('.');
    expect(verifyPushToken('x'.repeat(64), token, NOW)).toBeUndefined();
    expect(verifyPushToken(KEY, `43.${expiresAt}.${signature}`, NOW)).toBeUndefined();
    expect(verifyPushToken(KEY, `${userId}.${Number(expiresAt) + 1}.${signature}`, NOW)).toBeUndefined();
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    expect(verifyPushToken(KEY, `${userId}.${expiresAt}.${flipped}`, NOW)).toBeUndefined();
  });

  it('refuses what is not shaped like a token', () => {
    for (const bad of ['', '42', '42.1', 'a.1.' + 'x'.repeat(43), `42.1.${'x'.repeat(42)}`, `42.1.${'x'.repeat(43)}.extra`]) {
      expect(verifyPushToken(KEY, bad, NOW)).toBeUndefined();
    }
  });

  it('websocketUrl turns the caller origin into ws(s) on /ws', () => {
    expect(websocketUrl('http://127.0.0.1:8080', '1.2.s')).toBe('ws://127.0.0.1:8080/ws?token=1.2.s');
    expect(websocketUrl('https://doable.example/', '1.2.s')).toBe('wss://doable.example/ws?token=1.2.s');
  });

  it("websocketUrl names the user's home key for the balancer, after the token", () => {
    expect(websocketUrl('https://doable.example', '1.2.s', '0a1b2c3d')).toBe('wss://doable.example/ws?token=1.2.s&home=0a1b2c3d');
  });
});
