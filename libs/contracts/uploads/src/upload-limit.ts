/** The largest file a caller may upload now, in bytes (their plan's `upload_limit_mb`). */
export interface UploadLimit {
  readonly maxBytes: number;
}

/** Where the gateway puts a file part before the uploads service has looked at it (the orphan sweep's prefix). */
export const STAGING_PREFIX = 'staging/';

/** How long an upload may take end to end (public-api-facts: 5 minutes), after which staging bytes are orphans. */
export const UPLOAD_TIMEOUT_MS = 5 * 60 * 1000;

/** The file-serving path prefix on the gateway: `/uploads/files/<id>/<secret>/<name>`. */
export const FILE_PATH_PREFIX = '/uploads/files/';
