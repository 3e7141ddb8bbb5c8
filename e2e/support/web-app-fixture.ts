import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A tiny stand-in for the built web app (dist/web), for the e2e of what the gateway and
 * auth-oauth do for it, independent of the app's own code: an index.html with a hashed script
 * and stylesheet, and a script that signs in as the real app does (PKCE with the first-party
 * client doable-web, back to /app/) and then reads the user through the public Sync API.
 * The page also carries an inline script, which the CSP must keep from running.
 */
export const FIXTURE_SCRIPT = 'assets/app-3f2a9c1d.js';
export const FIXTURE_STYLE = 'assets/app-7b8e0d42.css';

const INDEX = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Doable fixture app</title>
<link rel="stylesheet" href="/app/${FIXTURE_STYLE}">
<script type="module" src="/app/${FIXTURE_SCRIPT}"></script>
</head><body><main><h1>Doable</h1><p id="status" role="status">Loading</p></main>
<script>document.title = 'inline script ran';</script>
</body></html>
`;

const STYLE = 'body{font-family:system-ui,sans-serif;color:#111;background:#fff}\n';

const SCRIPT = `
const status = document.getElementById('status');
const here = new URL(location.href);
const redirectUri = location.origin + '/app/';
const b64url = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
const random = (size) => b64url(crypto.getRandomValues(new Uint8Array(size)));

async function signIn() {
  const verifier = random(32);
  const state = random(16);
  sessionStorage.setItem('pkce', JSON.stringify({ verifier, state }));
  const challenge = b64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  const query = new URLSearchParams({ client_id: 'doable-web', scope: 'data:read_write', state, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: 'S256' });
  location.assign('/oauth/authorize?' + query);
}

async function finish(code) {
  const saved = JSON.parse(sessionStorage.getItem('pkce') || 'null');
  sessionStorage.removeItem('pkce');
  history.replaceState(null, '', '/app/');
  if (!saved || saved.state !== here.searchParams.get('state')) throw new Error('state mismatch');
  const exchanged = await fetch('/oauth/access_token', { method: 'POST', body: new URLSearchParams({ grant_type: 'authorization_code', client_id: 'doable-web', code, code_verifier: saved.verifier, redirect_uri: redirectUri }) });
  const { access_token } = await exchanged.json();
  const synced = await fetch('/api/v1/sync', { method: 'POST', headers: { authorization: 'Bearer ' + access_token }, body: new URLSearchParams({ sync_token: '*', resource_types: '["user"]' }) });
  const { user } = await synced.json();
  status.textContent = 'Signed in as ' + user.email;
}

const code = here.searchParams.get('code');
(code ? finish(code) : signIn()).catch((err) => { status.textContent = 'Failed: ' + err.message; });
`;

export interface FixtureApp {
  /** The folder to point WEB_APP_DIR at. */
  readonly dir: string;
  remove(): void;
}

/** Writes the fixture app, with a file beside it (outside the app) that a symlink inside points to. */
export function writeFixtureApp(): FixtureApp {
  const top = mkdtempSync(join(tmpdir(), 'doable-web-fixture-'));
  const dir = join(top, 'web');
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), INDEX);
  writeFileSync(join(dir, FIXTURE_SCRIPT), SCRIPT);
  writeFileSync(join(dir, FIXTURE_STYLE), STYLE);
  writeFileSync(join(top, 'outside.txt'), 'not part of the app');
  symlinkSync(join(top, 'outside.txt'), join(dir, 'assets', 'outside.txt'));
  return { dir, remove: () => rmSync(top, { recursive: true, force: true }) };
}
