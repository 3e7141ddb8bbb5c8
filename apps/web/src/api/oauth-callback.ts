/** What the app keeps between leaving for /oauth/authorize and coming back. */
export interface PendingSignIn {
  state: string;
  verifier: string;
  /** The view the person was on, restored after sign-in. */
  hash: string;
}

export type CallbackOutcome = { kind: 'none' } | { kind: 'error'; message: string } | { kind: 'code'; code: string; verifier: string; hash: string };

/**
 * Reads the redirect back from /oauth/authorize. A state that differs from the one sent aborts
 * the flow (spec §5.5): the code may be an attacker's, pushed into this page.
 */
export function readCallback(search: string, pending: PendingSignIn | null): CallbackOutcome {
  const params = new URLSearchParams(search);
  const code = params.get('code');
  const error = params.get('error');
  if (!code && !error) return { kind: 'none' };
  if (!pending || params.get('state') !== pending.state) return { kind: 'error', message: 'The sign-in answer did not match this browser tab. Please sign in again.' };
  if (error) return { kind: 'error', message: error === 'access_denied' ? 'Access was not granted.' : `Sign-in failed (${error}).` };
  return { kind: 'code', code: code ?? '', verifier: pending.verifier, hash: pending.hash };
}
