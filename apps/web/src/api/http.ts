import { NoSessionError, currentToken, dropToken, obtainToken } from './app-session';
import { TransientSendError } from './command-queue';
import { type Answer, exchange } from './exchange';

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

async function bearer(): Promise<string> {
  try {
    return currentToken() ?? (await obtainToken());
  } catch (err) {
    if (err instanceof NoSessionError) throw new SignedOutError(err.message);
    throw err;
  }
}

/**
 * One call to a public API with the bearer token. No answer at all (within the exchange's
 * deadline), a 5xx or a 429 is transient (the caller may resend: sync commands carry uuids). A 401 asks the session for a new token once
 * (the token lives a working day; the session a month) and sends again; a second 401, or no
 * session, means signed out.
 */
export async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  let response = await send(path, init, await bearer());
  if (response.status === 401) {
    dropToken();
    response = await send(path, init, await bearer());
  }
  if (response.status === 401) throw new SignedOutError('The token was refused');
  if (response.status >= 500 || response.status === 429) throw new TransientSendError(`HTTP ${response.status}`);
  if (!response.ok) throw new RequestRefusedError(response.status, response.body);
  return response.body as T;
}

function send(path: string, init: RequestInit, token: string): Promise<Answer> {
  return exchange(path, { ...init, headers: { ...(init.headers as Record<string, string>), Authorization: `Bearer ${token}` } });
}

export function form(fields: Record<string, string>): RequestInit {
  return { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) };
}

export function json(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) };
}
