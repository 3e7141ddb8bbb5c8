import type { Response } from 'express';

/**
 * Writes a reply body that arrived from the service as UTF-8 bytes (a long text body, framed on
 * NATS: a full sync of a large account is 3 MB) as those bytes. Decoding it to a string for
 * Express to encode again, joining the slices and hashing an ETag were about 30 ms of the
 * gateway's CPU per 5,000-task full sync (bench S3).
 *
 * ETag: only a GET (or HEAD) can be revalidated (Express answers If-None-Match with 304 only
 * there), so those keep Express's send, ETag and freshness check included. Any other method (the
 * Sync API's POST) is written with its Content-Length and no ETag: no client can send one back.
 */
export function sendByteBody(res: Response, body: Buffer, contentType: string | undefined): void {
  // No media type: the text is a value to render as JSON, as a string body always was.
  if (contentType === undefined) {
    res.json(body.toString('utf8'));
    return;
  }
  res.type(contentType);
  // Express adds the charset to text it encodes itself; these bytes are the same UTF-8.
  const type = res.get('Content-Type') ?? contentType;
  if (!/;\s*charset=/i.test(type)) res.setHeader('Content-Type', `${type}; charset=utf-8`);
  const method = res.req.method;
  if (method === 'GET' || method === 'HEAD') {
    res.send(body);
    return;
  }
  res.setHeader('Content-Length', body.length);
  res.end(body);
}
