/** The largest file a caller may upload now, in bytes (their plan's `upload_limit_mb`). */
export interface UploadLimit {
  readonly maxBytes: number;
}

/**
 * Where a streamed file lands: `files/<millis>-<uuid>/original`, the very place an upload keeps
 * its original. The uploads service adopts it there (the bytes pass through the store once) or
 * removes the folder; a reader of any other streamed file (an account import) deletes it. The
 * stamp lets the orphan sweep tell a folder a crash left unrecorded from one being written now.
 */
export const STREAMED_FILES_PREFIX = 'files/';
const ORIGINAL = '/original';

export function streamedFileKey(now: number, uuid: string): string {
  return `${STREAMED_FILES_PREFIX}${now}-${uuid}${ORIGINAL}`;
}

/** The folder of a streamed file's key (`files/<millis>-<uuid>`), or null for any other key. */
export function streamedFileFolder(key: string): string | null {
  return /^files\/[0-9]{13}-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/original$/.test(key) ? key.slice(0, -ORIGINAL.length) : null;
}

/** How long an upload may take end to end (public-api-facts: 5 minutes), after which unrecorded bytes are orphans. */
export const UPLOAD_TIMEOUT_MS = 5 * 60 * 1000;

/**
 * The largest avatar image taken (`update_avatar`), the gateway's own ceiling for that route: an
 * avatar is no upload, so neither the plan's `uploads` feature nor its upload_limit_mb applies.
 */
export const AVATAR_MAX_BYTES = 10 * 1024 * 1024;

/** The file-serving path prefix on the gateway: `/uploads/files/<id>/<secret>/<name>`. */
export const FILE_PATH_PREFIX = '/uploads/files/';
