import type { EdgeReply } from '@doable/contracts-common';
import { bodyBuffer, isBodyBytes } from '@doable/shared-transport';
import type { Response } from 'express';
import { keptBodyEtag } from '../polls/kept-bodies';

/**
 * A Content-Type that Express leaves as it is when it sends text (it sets `charset=utf-8` on a
 * string body's type, re-written by the content-type module): a lower-case type with that one
 * parameter. A body of bytes sent with it gets the very headers its text would have.
 */
const UTF8_TYPE = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+; charset=utf-8$/;

/**
 * Writes a service's reply body (status and headers already set). Text and objects as ever; a
 * body that came as bytes (a long answer over NATS: a full sync, a REST v2 list; a kept poll
 * answer) is written as those bytes, neither decoded to text nor encoded again, with the same
 * Content-Type, length and ETag as its text would get. Where Express would change the type for
 * text (a type without `charset=utf-8`, or no type: sent as JSON), the bytes are sent as their
 * text, the old way. Bytes answering a request other than GET or HEAD go without an ETag.
 */
export function sendReplyBody(res: Response, reply: Pick<EdgeReply, 'status' | 'body' | 'contentType'>): void {
  const { body, contentType } = reply;
  if (reply.status === 204 || body === null || body === undefined) {
    res.end();
    return;
  }
  const text = (bytes: Uint8Array) => bodyBuffer(bytes).toString('utf8');
  if (contentType === undefined) {
    res.json(isBodyBytes(body) ? text(body) : body);
    return;
  }
  if (isBodyBytes(body)) {
    // Such a type is what Express would write for it (mime-types keeps a type that names its charset).
    if (UTF8_TYPE.test(contentType)) res.setHeader('Content-Type', contentType);
    else res.type(contentType);
    if (UTF8_TYPE.test(String(res.get('Content-Type')))) {
      sendBytes(res, bodyBuffer(body));
      return;
    }
  } else {
    res.type(contentType);
  }
  res.send(typeof body === 'string' ? body : isBodyBytes(body) ? text(body) : JSON.stringify(body));
}

/** Methods whose answers a later request can be conditional on (If-None-Match): the only ones given an ETag here. */
const CONDITIONAL_METHODS = new Set(['GET', 'HEAD']);

function sendBytes(res: Response, bytes: Buffer): void {
  if (!CONDITIONAL_METHODS.has(res.req.method)) {
    // What res.send does for a POST's bytes, without the ETag: no request can be conditional on
    // a POST's answer, and hashing it was a fifth of the gateway's CPU for a full sync (3 MB of
    // SHA-1 per answer, issue #48 bench S3). The type is set (sendReplyBody) and the status too.
    res.setHeader('Content-Length', bytes.length);
    res.end(bytes);
    return;
  }
  if (res.getHeader('ETag') === undefined) {
    // A kept poll answer's ETag, made once: the one Express would make (its `etag fn`, weak by default).
    const etag = keptBodyEtag(bytes, (body) => {
      const make: unknown = res.app.get('etag fn');
      const etag: unknown = typeof make === 'function' ? Reflect.apply(make, undefined, [body]) : undefined;
      return typeof etag === 'string' ? etag : undefined;
    });
    if (etag) res.setHeader('ETag', etag);
  }
  res.send(bytes);
}
