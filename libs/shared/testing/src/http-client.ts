export interface HttpResult<T = any> {
  readonly status: number;
  readonly headers: Headers;
  readonly body: T;
}

/** What an observer sees of each exchange; it may throw to fail the calling test. */
export interface HttpExchange {
  readonly method: string;
  readonly url: URL;
  readonly status: number;
  readonly contentType: string | null;
  readonly body: unknown;
}

const observers = new Set<(exchange: HttpExchange) => void>();

/** Calls `observer` after every `http()` response until the returned function is called. */
export function observeHttp(observer: (exchange: HttpExchange) => void): () => void {
  observers.add(observer);
  return () => observers.delete(observer);
}

/**
 * Hands an exchange made outside `http()` (a client library's, through a test proxy) to the
 * observers; an observer's throw propagates to the caller.
 */
export function reportHttpExchange(exchange: HttpExchange): void {
  for (const observer of observers) observer(exchange);
}

/** A small fetch wrapper for end-to-end tests: JSON or form bodies, parsed JSON answers. */
export async function http<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: { token?: string; json?: unknown; form?: Record<string, string>; headers?: Record<string, string>; raw?: string } = {},
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers['authorization'] = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  } else if (options.raw !== undefined) {
    body = options.raw;
  }
  const url = new URL(path, baseUrl);
  const response = await fetch(url, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON: keep the text.
  }
  reportHttpExchange({ method, url, status: response.status, contentType: response.headers.get('content-type'), body: text ? parsed : undefined });
  return { status: response.status, headers: response.headers, body: parsed as T };
}
