import type { Dialect } from '@doable/contracts-common';
import { AVATAR_PATH_PREFIX } from '@doable/contracts-sync';
import { AVATAR_MAX_BYTES, UPLOAD_TIMEOUT_MS, UploadsSubjects } from '@doable/contracts-uploads';
import type { Route } from './route';

const subject = UploadsSubjects.edge;

/** uploads/add|get|delete under one prefix (v7-v9): add streams its file, get is also a GET. */
function generation(prefix: string, dialect: Dialect): Route[] {
  return [
    { method: 'POST', path: `${prefix}/uploads/add`, subject, dialect, auth: 'bearer', multipart: 'stream', timeoutMs: UPLOAD_TIMEOUT_MS },
    { method: 'POST', path: `${prefix}/uploads/get`, subject, dialect, auth: 'bearer' },
    { method: 'GET', path: `${prefix}/uploads/get`, subject, dialect, auth: 'bearer' },
    { method: 'POST', path: `${prefix}/uploads/delete`, subject, dialect, auth: 'bearer' },
  ];
}

/**
 * Setting the avatar (POST, the image streamed like an upload, bounded by AVATAR_MAX_BYTES
 * rather than the plan) and removing it (DELETE), under every generation's prefix (Doable's
 * choice: the spec names no avatar endpoint; see docs/api/files.md).
 */
function avatarRoutes(prefix: string, dialect: Dialect): Route[] {
  return [
    { method: 'POST', path: `${prefix}/update_avatar`, subject, dialect, auth: 'bearer', multipart: 'stream', streamLimitBytes: AVATAR_MAX_BYTES, timeoutMs: UPLOAD_TIMEOUT_MS },
    { method: 'DELETE', path: `${prefix}/update_avatar`, subject, dialect, auth: 'bearer' },
  ];
}

const AVATAR_PREFIXES: ReadonlyArray<[string, Dialect]> = [
  ['/API/v7', 'sync-v7'],
  ['/api/v7', 'sync-v7'],
  ['/sync/v8', 'sync-v8'],
  ['/sync/v9', 'sync-v9'],
  ['/api/v1', 'rest-api-v1'],
];

/**
 * Uploads on every path of public-api-facts §1.4, and the file route their URLs point at. A
 * file URL is its own authorisation (an unguessable signature: uploads/upload-urls.ts), so
 * the file route takes no bearer: an <img> in a comment cannot send one.
 */
export const UPLOAD_ROUTES: readonly Route[] = [
  ...generation('/API/v7', 'sync-v7'),
  ...generation('/api/v7', 'sync-v7'),
  ...generation('/sync/v8', 'sync-v8'),
  ...generation('/sync/v9', 'sync-v9'),
  { method: 'POST', path: '/api/v1/uploads', subject, dialect: 'rest-api-v1', auth: 'bearer', multipart: 'stream', timeoutMs: UPLOAD_TIMEOUT_MS },
  { method: 'GET', path: '/api/v1/uploads', subject, dialect: 'rest-api-v1', auth: 'bearer' },
  { method: 'DELETE', path: '/api/v1/uploads', subject, dialect: 'rest-api-v1', auth: 'bearer' },
  { method: 'GET', path: '/uploads/files/:id/:signature/:name', subject: UploadsSubjects.file, dialect: 'rest-api-v1', auth: 'none' },
  { method: 'GET', path: '/uploads/files/:id/:signature/:variant/:name', subject: UploadsSubjects.file, dialect: 'rest-api-v1', auth: 'none' },
  ...AVATAR_PREFIXES.flatMap(([prefix, dialect]) => avatarRoutes(prefix, dialect)),
  // An avatar size by its random image id, to anyone: an <img> sends no token (uploads/avatars).
  { method: 'GET', path: `${AVATAR_PATH_PREFIX}:name`, subject: UploadsSubjects.file, dialect: 'rest-api-v1', auth: 'none' },
];

/** The streamed upload endpoints by method and raw URL (before routing: the HTTP server's per-request deadline). */
export function isStreamedUpload(method: string, url: string): boolean {
  if (method !== 'POST') return false;
  const path = url.split('?')[0];
  return (
    /^\/(API\/v7|api\/v7|sync\/v8|sync\/v9)\/(uploads\/add|update_avatar)\/?$/.test(path) || /^\/api\/v1\/(uploads|import\/todoist|update_avatar)\/?$/.test(path)
  );
}
