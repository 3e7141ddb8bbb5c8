/**
 * A reply's `body` held as the UTF-8 bytes it travelled as, rather than as text. Over NATS a long
 * text body already travels raw (nats/reply-frames.ts); a caller that only passes it on (rest
 * handing sync's REST v2 list to the gateway, the gateway writing an answer to HTTP) asks to keep
 * those bytes (RequestOptions.bodyAs), so nobody decodes the text only to encode it again. Every
 * other caller gets the text, as ever: the wire is the same either way.
 */

/** A reply as a caller that keeps bytes reads it: its `body` may be a Buffer where the reply type says text. */
export type WithBodyBytes<Rep> = { [K in keyof Rep]: K extends 'body' ? Rep[K] | Buffer : Rep[K] };

export function isBodyBytes(body: unknown): body is Uint8Array {
  return body instanceof Uint8Array;
}

/** The bytes as a Buffer over the same memory (no copy): what Node's HTTP and NATS writers take. */
export function bodyBuffer(body: Uint8Array): Buffer {
  return Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

/** The reply with a bytes `body` as its text; the same object when its body is not bytes. */
export function withTextBody<T>(reply: T): T {
  const body = typeof reply === 'object' && reply !== null ? (reply as { body?: unknown }).body : undefined;
  return isBodyBytes(body) ? { ...reply, body: bodyBuffer(body).toString('utf8') } : reply;
}
