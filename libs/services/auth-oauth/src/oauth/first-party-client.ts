/** Doable's own web app's client id (the migration 1764140000000 registers it). */
export const WEB_APP_CLIENT_ID = 'doable-web';

/** Where the web app takes its code: its index, served by the gateway at /app/. */
export const WEB_APP_REDIRECT_PATH = '/app/';

/** PUBLIC_URL when it is set (no trailing slash), else null: the origin the web app's redirect URL is taken from. */
export const WEB_APP_ORIGIN = Symbol('WEB_APP_ORIGIN');

/**
 * The one redirect URL the first-party client may use: exactly `<origin>/app/`, where origin is
 * PUBLIC_URL when it is set (behind a proxy the request's own origin may be an inside address),
 * else the origin the authorization request came in on (the gateway's address as the browser
 * used it: a port chosen at start-up, `npm start` on another host). The request's origin is
 * safe to trust here: it is the site the person's browser is on (their session cookie is scoped
 * to it), and the code goes back to that same site's app, which alone holds the PKCE verifier.
 */
export function webAppRedirectUri(publicUrl: string | null, requestOrigin: string): string {
  return `${publicUrl ?? requestOrigin}${WEB_APP_REDIRECT_PATH}`;
}

/** What the web app may do: everything a person does in it (tasks, deleting, projects), never backups. */
export const WEB_APP_SCOPES = ['data:read_write', 'data:delete', 'project:delete'] as const;
