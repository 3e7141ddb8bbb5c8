import { type PendingSignIn, readCallback } from './oauth-callback';
import { pkcePair, randomToken } from './pkce';

export const CLIENT_ID = 'doable-web';
export const SCOPE = 'data:read_write,data:delete,project:delete';
const TOKEN_KEY = 'doable.token';
const PENDING_KEY = 'doable.oauth';

/** The app's own index is the callback: `/app/` on whatever origin serves it. */
export function redirectUri(): string {
  return `${location.origin}/app/`;
}

/** The token lives in memory and in this tab's sessionStorage: same origin only, never a cookie. */
let token: string | null = sessionStorage.getItem(TOKEN_KEY);

export function currentToken(): string | null {
  return token;
}

function forgetToken(): void {
  token = null;
  sessionStorage.removeItem(TOKEN_KEY);
}

export async function startSignIn(): Promise<void> {
  const { verifier, challenge } = await pkcePair();
  const pending: PendingSignIn = { state: randomToken(), verifier, hash: location.hash };
  sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  const query = new URLSearchParams({
    client_id: CLIENT_ID,
    scope: SCOPE,
    state: pending.state,
    redirect_uri: redirectUri(),
    response_type: 'code',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  location.assign(`/oauth/authorize?${query.toString()}`);
}

function takePending(): PendingSignIn | null {
  const raw = sessionStorage.getItem(PENDING_KEY);
  sessionStorage.removeItem(PENDING_KEY);
  try {
    return raw ? (JSON.parse(raw) as PendingSignIn) : null;
  } catch {
    return null;
  }
}

/**
 * Finishes a sign-in if this load is the OAuth redirect: exchanges the code (with the PKCE
 * verifier, no secret: a public client) and drops code and state from the address bar.
 * Returns an error message for the sign-in page, or null.
 */
export async function completeSignIn(): Promise<string | null> {
  const outcome = readCallback(location.search, location.search ? takePending() : null);
  if (outcome.kind === 'none') return null;
  history.replaceState(null, '', `${location.pathname}${outcome.kind === 'code' ? outcome.hash : ''}`);
  if (outcome.kind === 'error') return outcome.message;
  const response = await fetch('/oauth/access_token', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: CLIENT_ID, code: outcome.code, code_verifier: outcome.verifier, redirect_uri: redirectUri(), grant_type: 'authorization_code' }),
  });
  const body = (await response.json().catch(() => ({}))) as { access_token?: string; error?: string };
  if (!response.ok || !body.access_token) return `Sign-in failed (${body.error ?? response.status}).`;
  token = body.access_token;
  sessionStorage.setItem(TOKEN_KEY, token);
  return null;
}

/** Revokes the token (RFC 7009 at /api/v1/revoke, a public client names itself) and forgets it. */
export async function signOut(): Promise<void> {
  const revoking = token;
  forgetToken();
  if (revoking) {
    await fetch('/api/v1/revoke', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: CLIENT_ID, token: revoking, token_type_hint: 'access_token' }),
    }).catch(() => undefined);
  }
}

/** The server refused the token (revoked elsewhere, expired): back to the sign-in page. */
export function tokenRejected(): void {
  forgetToken();
}
