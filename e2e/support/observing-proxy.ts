import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { reportHttpExchange } from '@doable/shared-testing';

/** A gateway answers or gives up well within this (its own request deadline): past it, the proxy answers 502 and says so. */
const UPSTREAM_TIMEOUT_MS = 60_000;

/** Hop-by-hop headers, and those fetch sets itself (it also decompresses, so the encoding goes). */
const DROPPED_REQUEST = new Set(['host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'upgrade', 'expect']);
const DROPPED_RESPONSE = new Set(['connection', 'keep-alive', 'content-length', 'transfer-encoding', 'content-encoding', 'set-cookie']);

export interface ObservingProxy {
  /** Where the client should go instead of the target. */
  readonly url: string;
  /** What the `http()` observers refused (the OpenAPI check's mismatches), in order. */
  readonly failures: readonly string[];
  /** Requests not yet answered, with how long each has waited: what a client that hangs is waiting for. */
  inFlight(): string[];
  close(): Promise<void>;
}

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A pass-through HTTP proxy in the test process in front of `target` (an origin), for the client
 * libraries the e2e specs run in child processes: every exchange is handed to the `http()`
 * observers (so the OpenAPI response check sees the official clients' REST answers too). An
 * observer's refusal cannot throw into the child, so it is kept in `failures` for runClient.
 */
export async function startObservingProxy(target: string): Promise<ObservingProxy> {
  const failures: string[] = [];
  const waiting = new Map<IncomingMessage, number>();
  const forward = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', target);
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (value === undefined || DROPPED_REQUEST.has(name)) continue;
      for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
    }
    const method = request.method ?? 'GET';
    const body = await bodyOf(request);
    const answer = await fetch(url, { method, headers, body: method === 'GET' || method === 'HEAD' ? undefined : body, redirect: 'manual', signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS) });
    const bytes = Buffer.from(await answer.arrayBuffer());
    const outgoing: Record<string, string | string[]> = {};
    answer.headers.forEach((value, name) => {
      if (!DROPPED_RESPONSE.has(name)) outgoing[name] = value;
    });
    const cookies = answer.headers.getSetCookie();
    if (cookies.length > 0) outgoing['set-cookie'] = cookies;
    response.writeHead(answer.status, outgoing).end(bytes);

    const text = bytes.toString('utf8');
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON: the text as it is.
    }
    try {
      reportHttpExchange({ method, url, status: answer.status, contentType: answer.headers.get('content-type'), body: text ? parsed : undefined });
    } catch (error) {
      failures.push(error instanceof Error ? error.message : String(error));
    }
  };
  const server = createServer((request, response) => {
    waiting.set(request, performance.now());
    forward(request, response)
      .catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
        response.end(`proxy: ${String(error)}`);
      })
      .finally(() => waiting.delete(request));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    failures,
    inFlight: () => [...waiting].map(([request, since]) => `${request.method} ${request.url} (waiting ${Math.round(performance.now() - since)} ms)`),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
