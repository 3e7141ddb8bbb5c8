import { realpathSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { sep } from 'node:path';
import { DomainError } from '@doable/shared-errors';
import { type NextFunction, type Request, type RequestHandler, type Response, Router } from 'express';
import { writeHttpError } from '../http/http-errors';
import { ASSET_CACHE, INDEX_CACHE, WEB_APP_CSP, WEB_APP_HEADERS } from './web-app-headers';

/** Where the app is served. Not an API route: outside the route table (so the fuzz and scope suites, which walk that table, leave it to e2e/web-app.e2e-spec.ts). */
export const WEB_APP_PATH = '/app';

const NOT_BUILT = 'The web app is not built on this server (npm run build builds it)';

/** The last segment has an extension: a file was asked for. Without one it is one of the app's own paths (`/app/today`). */
const isFilePath = (path: string) => /\.[^/]*$/.test(path);

/**
 * The path below /app, decoded, or undefined when it cannot name a file of the app: a segment that
 * does not decode, a NUL, `..` (whatever its encoding: checked after decoding) or a dot-file.
 */
function appPath(raw: string): string | undefined {
  let segments: string[];
  try {
    segments = raw.split('/').map((segment) => decodeURIComponent(segment));
  } catch {
    return undefined;
  }
  if (segments.some((segment) => segment.includes('\0') || segment.includes('/') || segment.includes('\\') || segment.startsWith('.'))) return undefined;
  return segments.join('/');
}

/** The real directory, or undefined while it does not exist (the app is not built yet: answered 404, not 500). */
function realDir(dir: string): string | undefined {
  try {
    return realpathSync(dir);
  } catch {
    return undefined;
  }
}

/**
 * The file a path names, resolved through any symlink, when it lies inside the app's directory;
 * undefined otherwise (missing, or a link out of it: a link is followed, then held to the folder).
 */
async function fileInside(root: string, relative: string): Promise<string | undefined> {
  const resolved = await realpath(`${root}${relative}`).catch(() => undefined);
  return resolved !== undefined && resolved.startsWith(`${root}${sep}`) ? resolved : undefined;
}

function notFound(res: Response, message: string): void {
  writeHttpError(res, new DomainError('NOT_FOUND', message));
}

/**
 * `/app`: the web app (issue #35), static files from `dir` (WEB_APP_DIR, the build's dist/web).
 * `/app` redirects to `/app/`; a path without a file extension is one of the app's own views and
 * answers index.html (the app routes in the browser); a file answers itself, hashed assets cached
 * for a year. Express's `res.sendFile` (the `send` module) writes them: content type, ETag and
 * Last-Modified with 304s, HEAD, ranges. What is added here: the CSP and security headers, the
 * cache rules, the path checks (before `send`'s own) and coded 4xx answers.
 */
export function webAppRoutes(dir: string): RequestHandler {
  const router = Router({ strict: true, caseSensitive: true });
  let root: string | undefined;
  // The base URL leads a browser to the app (issue #47: it answered a JSON 404). Only a browser:
  // a client asking for JSON keeps the coded 404 it can read, not an HTML page it cannot.
  router.get('/', (req: Request, res: Response, next: NextFunction) => {
    if (!(req.get('accept') ?? '').includes('text/html')) return next();
    res.setHeader('Cache-Control', 'no-cache');
    res.redirect(302, `${WEB_APP_PATH}/`);
  });
  router.use(WEB_APP_PATH, (req: Request, res: Response, next: NextFunction) => {
    // A mount matches `/app/...` and `/app` alike, not `/apple`.
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return writeHttpError(res, new DomainError('METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${WEB_APP_PATH}`, { allowed: ['GET', 'HEAD'] }));
    }
    for (const [name, value] of Object.entries(WEB_APP_HEADERS)) res.setHeader(name, value);
    // On every answer, not only the HTML: an SVG or HTML file opened by itself is held to it too.
    res.setHeader('Content-Security-Policy', WEB_APP_CSP);
    const [pathPart, query] = splitQuery(req.originalUrl);
    if (pathPart === WEB_APP_PATH) return res.redirect(301, `${WEB_APP_PATH}/${query}`);
    const path = appPath(req.path);
    if (path === undefined) return notFound(res, 'No such file in the web app');
    // Looked up until found, then kept: a build after the gateway started is picked up without a restart.
    root ??= realDir(dir);
    if (root === undefined) return notFound(res, NOT_BUILT);
    const asset = isFilePath(path);
    serve(res, root, asset ? path : '/index.html', asset && path.startsWith('/assets/') ? ASSET_CACHE : INDEX_CACHE, asset ? 'No such file in the web app' : NOT_BUILT, next);
  });
  // Only `/` and `/app`, `/app/...` are the router's (its mount matches no `/apple`): every API
  // request, the polls above all, passes on after one look at its path, not through the router.
  return (req, res, next) => {
    const path = req.path;
    if (path === '/' || path === WEB_APP_PATH || path.startsWith(`${WEB_APP_PATH}/`)) router(req, res, next);
    else next();
  };
}

function serve(res: Response, root: string, relative: string, cacheControl: string, missing: string, next: NextFunction): void {
  void fileInside(root, relative).then((file) => {
    if (file === undefined) return notFound(res, missing);
    res.setHeader('Cache-Control', cacheControl);
    res.sendFile(file, { cacheControl: false, dotfiles: 'allow' }, (err?: Error & { status?: number; code?: string }) => {
      if (!err || res.headersSent) return;
      if (err.status === 404) return notFound(res, missing);
      // A range past the end (416) or a malformed one: the client's fault, answered with a code.
      if (err.status !== undefined && err.status < 500) return writeHttpError(res, new DomainError('INVALID_ARGUMENT_VALUE', err.message));
      next(err);
    });
  }, next);
}

function splitQuery(url: string): [string, string] {
  const at = url.indexOf('?');
  return at < 0 ? [url, ''] : [url.slice(0, at), url.slice(at)];
}
