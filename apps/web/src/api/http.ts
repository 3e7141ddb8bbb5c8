import { TransientSendError } from './command-queue';
import { currentToken } from './oauth';

/** The token was refused: the person must sign in again. */
export class SignedOutError extends Error {}

/** A client-caused refusal of a whole request (a 4xx other than auth): not worth resending. */
export class RequestRefusedError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`The server refused the request (${status})`);
  }
}

/**
 * One call to a public API with the bearer token. No answer at all, a 5xx or a 429 is transient
 * (the caller may resend: sync commands carry uuids); 401 means signed out.
 */
export async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const token = currentToken();
  if (!token) throw new SignedOutError('Not signed in');
  let response: Response;
  try {
    response = await fetch(path, { ...init, headers: { ...(init.headers as Record<string, string>), Authorization: `Bearer ${token}` } });
  } catch (err) {
    throw new TransientSendError(err instanceof Error ? err.message : 'network error');
  }
  if (response.status === 401) throw new SignedOutError('The token was refused');
  if (response.status >= 500 || response.status === 429) throw new TransientSendError(`HTTP ${response.status}`);
  const body: unknown = response.status === 204 ? null : await response.json().catch(() => null);
  if (!response.ok) throw new RequestRefusedError(response.status, body);
  return body as T;
}

export function form(fields: Record<string, string>): RequestInit {
  return { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) };
}

export function json(body: unknown): RequestInit {
  return { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
}
