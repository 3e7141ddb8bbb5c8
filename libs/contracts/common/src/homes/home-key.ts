import { createHash } from 'node:crypto';

/**
 * A user's home key: what a balancer hashes to send all of that user's requests to one gateway
 * (docs/operations/home-gateways.md). Eight lowercase hex digits derived from the user id alone,
 * so sync and the gateways can compute it for any user, and every credential made for the user
 * carries it where a balancer can read it: the last eight digits of an API token (still 40 hex
 * digits, as clients check) and the `home` parameter of the push channel's `websocket_url`.
 * It tells the user's id to no one: a hash, and only in credentials the user holds anyway.
 */
export const HOME_KEY_LENGTH = 8;

const HOME_KEY = /^[0-9a-f]{8}$/;

export function homeKey(userId: string): string {
  return createHash('sha256').update(`doable-home:${userId}`).digest('hex').slice(0, HOME_KEY_LENGTH);
}

/**
 * The home key a balancer reads from an API token: its last eight hex digits. Tokens made before
 * home keys (any 40 hex digits) yield one too, a random one: such a client's requests still
 * reach one gateway, not its user's home, and are answered correctly there.
 */
export function homeKeyOfToken(token: string): string | undefined {
  return /^[0-9a-fA-F]{40}$/.test(token) ? token.slice(-HOME_KEY_LENGTH).toLowerCase() : undefined;
}

export function isHomeKey(value: string): boolean {
  return HOME_KEY.test(value);
}
