import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The credential in the user object's `websocket_url`: `<userId>.<expiresAt>.<signature>`.
 * Browsers cannot set headers on a WebSocket, so the URL must carry one; it is not the user's
 * API token (URLs end up in logs and histories), and all it grants is hearing "sync needed".
 * Long-lived because clients keep the URL from their last full sync (the user object comes
 * again only when it changes); an expired one is refused and the client falls back to polling.
 */
export const PUSH_TOKEN_LIFETIME_MS = 30 * 24 * 3600 * 1000;

const TOKEN = /^([0-9]{1,20})\.([0-9]{1,15})\.([A-Za-z0-9_-]{43})$/;

function signature(key: string, userId: string, expiresAtSeconds: string): string {
  return createHmac('sha256', key).update(`push:${userId}.${expiresAtSeconds}`).digest('base64url');
}

export function signPushToken(key: string, userId: string, now: number = Date.now()): string {
  const expiresAt = String(Math.floor((now + PUSH_TOKEN_LIFETIME_MS) / 1000));
  return `${userId}.${expiresAt}.${signature(key, userId, expiresAt)}`;
}

/** The user the token was made for, or undefined when it is malformed, forged or expired. */
export function verifyPushToken(key: string, token: string, now: number = Date.now()): string | undefined {
  const match = TOKEN.exec(token);
  if (!match) return undefined;
  const [, userId, expiresAt, given] = match;
  const expected = Buffer.from(signature(key, userId, expiresAt));
  if (!timingSafeEqual(expected, Buffer.from(given))) return undefined;
  return Number(expiresAt) * 1000 > now ? userId : undefined;
}

/**
 * `http(s)://host` -> `ws(s)://host/ws?token=...&home=...`; the channel is served by the same
 * gateways. `home` is the user's home key (contracts-common homes/home-key.ts): what a balancer
 * hashes to bring the socket to the gateway the user's writes tell (docs/operations/home-gateways.md).
 * The gateway itself does not read it.
 */
export function websocketUrl(origin: string, token: string, home?: string): string {
  const base = origin.replace(/^http(s?):\/\//i, 'ws$1://').replace(/\/+$/, '');
  return `${base}/ws?token=${encodeURIComponent(token)}${home === undefined ? '' : `&home=${encodeURIComponent(home)}`}`;
}
