import { connect } from 'node:net';

/** How a raw request's body ends. */
export type BodyEnding =
  /** All of `body` is sent (Content-Length says so unless `declaredLength` does otherwise). */
  | 'complete'
  /** The client closes the connection once `body` is written, before the answer. */
  | 'abort'
  /** `body` is sent, then nothing more until `stallMs` have passed (the server should end it first). */
  | 'stall'
  /** `body` is sent, then one more byte every `trickleEveryMs` until the server ends it (or `stallMs` pass). */
  | 'trickle';

export interface RawRequest {
  readonly method?: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body: Buffer;
  /** Content-Length to announce (default: the body's length); more than the body makes it cut short. */
  readonly declaredLength?: number;
  readonly ending?: BodyEnding;
  readonly stallMs?: number;
  readonly trickleEveryMs?: number;
}

export interface RawAnswer {
  /** null when no answer came (the client aborted, or the server closed the connection silently). */
  readonly status: number | null;
  readonly body: { error_tag?: string; http_code?: number; error_code?: number } | null;
  readonly text: string;
  readonly contentType: string;
}

/**
 * One request on its own socket, bytes exactly as given: what fetch cannot send (a body cut
 * short of its Content-Length, a client that vanishes mid-body or stalls). The answer is read
 * until the server closes the connection (Connection: close is asked for).
 */
export function rawRequest(baseUrl: string, request: RawRequest): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  const ending = request.ending ?? 'complete';
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    const received: Buffer[] = [];
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      clearTimeout(guard);
      socket.destroy();
      resolve(parse(Buffer.concat(received)));
    };
    const guard = setTimeout(settle, (request.stallMs ?? 0) + 30_000);
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('close', settle);
    socket.on('error', settle);
    socket.on('connect', () => {
      const headers = { host: url.host, connection: 'close', 'content-length': String(request.declaredLength ?? request.body.length), ...request.headers };
      const head = `${request.method ?? 'POST'} ${request.path} HTTP/1.1\r\n${Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}`)
        .join('\r\n')}\r\n\r\n`;
      socket.write(Buffer.concat([Buffer.from(head), request.body]), () => {
        if (ending === 'abort') setTimeout(settle, 20);
        if (ending === 'trickle') {
          const drip = setInterval(() => (socket.writable ? socket.write('x') : clearInterval(drip)), request.trickleEveryMs ?? 250);
          socket.once('close', () => clearInterval(drip));
        }
      });
    });
  });
}

function parse(raw: Buffer): RawAnswer {
  const text = raw.toString('utf8');
  const match = /^HTTP\/1\.1 (\d{3})/.exec(text);
  if (!match) return { status: null, body: null, text, contentType: '' };
  const headEnd = text.indexOf('\r\n\r\n');
  const contentType = /^content-type:\s*(.*)$/im.exec(text.slice(0, headEnd))?.[1]?.trim() ?? '';
  const bodyText = text.slice(headEnd + 4);
  let body: RawAnswer['body'] = null;
  try {
    body = JSON.parse(bodyText) as RawAnswer['body'];
  } catch {
    // Chunked or not JSON: the assertions on the tag show it.
    const chunked = /^[0-9a-f]+\r\n([\s\S]*?)\r\n0\r\n/i.exec(bodyText);
    if (chunked) {
      try {
        body = JSON.parse(chunked[1]) as RawAnswer['body'];
      } catch {
        body = null;
      }
    }
  }
  return { status: Number(match[1]), body, text, contentType };
}

/** The issue #28 reproduction: a multipart file part whose body ends before its closing boundary. */
export function cutMultipart(boundary = 'zz', content = 'hello'): { body: Buffer; headers: Record<string, string> } {
  return {
    body: Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n${content}`),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** A whole multipart body: the fields, then (each) file part. */
export function multipartBody(boundary: string, parts: ReadonlyArray<{ name: string; value: Buffer | string; fileName?: string }>, close = true): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = part.fileName === undefined ? `form-data; name="${part.name}"` : `form-data; name="${part.name}"; filename="${part.fileName}"\r\nContent-Type: application/octet-stream`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n`), Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value), Buffer.from('\r\n'));
  }
  if (close) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}
