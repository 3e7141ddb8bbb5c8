import { TransientSendError } from './command-queue';
import { exchange } from './exchange';

/**
 * The app's credential (issue #47). A person stays signed in through the browser session the
 * log-in and sign-up pages start: an HttpOnly cookie no script can read, sent only to this site.
 * The app keeps no token anywhere: each load asks `POST /auth/app/token` for a short-lived bearer
 * token bound to that session and holds it in memory, so every tab and every restart is signed
 * in while the session lives, and a script of another origin has nothing to read. Signing out
 * ends the session on the server, which revokes every token issued to it.
 */

let token: string | null = null;
let asking: Promise<string> | null = null;

export function currentToken(): string | null {
  return token;
}

/** The token was refused (expired, revoked): the next call asks the session for a new one. */
export function dropToken(): void {
  token = null;
}

/** Not signed in: no session, or it ended. */
export class NoSessionError extends Error {}

/**
 * A token for the session's person; concurrent callers share one request. Throws NoSessionError
 * when there is no session, TransientSendError when the server cannot be reached.
 */
export function obtainToken(): Promise<string> {
  asking ??= askForToken().finally(() => (asking = null));
  return asking;
}

async function askForToken(): Promise<string> {
  // JSON and same-origin: what the endpoint's CSRF check asks for (the browser adds our Origin).
  const response = await exchange('/auth/app/token', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}', credentials: 'same-origin' });
  if (response.status === 401) throw new NoSessionError('Not signed in');
  const accessToken = (response.body as { access_token?: unknown } | null)?.access_token;
  if (!response.ok || typeof accessToken !== 'string') throw new TransientSendError(`HTTP ${response.status}`);
  token = accessToken;
  return token;
}

/** Ends the session on the server (its tokens stop on every gateway before it answers) and forgets the token. */
export async function endServerSession(): Promise<void> {
  token = null;
  await exchange('/auth/app/sign-out', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}', credentials: 'same-origin' });
}

/** The browser's IANA zone (what sign-up takes and the app offers to switch to). */
export function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * The pages that start a session, coming back to the app's view afterwards. The browser's zone
 * goes along: a sign-up (also one reached from the log-in page's link) makes the account in it.
 */
export function signInUrl(kind: 'login' | 'signup', hash: string): string {
  const query = new URLSearchParams({ next: `/app/${hash}`, timezone: browserZone() });
  return `/auth/${kind}?${query.toString()}`;
}
