/**
 * The web app's Content-Security-Policy: its own script and style only, never inline (the build
 * inlines nothing: apps/web/vite.config.mts), so an injected `<script>` or `style=` does not run.
 * connect-src 'self' ws: wss: lets it call the APIs and open the push channel (`/ws`) on this
 * origin; images may be data:/blob: (attachments previewed before upload). No plugin, no `<base>`
 * (it could point the app's relative URLs elsewhere), never framed (clickjacking), forms post
 * only here.
 */
export const WEB_APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self' ws: wss:",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

/** On every answer under /app: no guessing a type from the bytes, and no app URL (it may carry `?code=`) sent on as a Referer. */
export const WEB_APP_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/** The page itself (index.html, for every app path): revalidated each time, so a new build is picked up at once. */
export const INDEX_CACHE = 'no-cache';
/** Vite's hashed files under assets/: a new build names new files, so a name's bytes never change. */
export const ASSET_CACHE = 'public, max-age=31536000, immutable';
