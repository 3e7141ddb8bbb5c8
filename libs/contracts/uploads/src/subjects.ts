import { type EdgeReply, edgeReplySchema, type EdgeRequest, edgeRequestSchema, principalSchema, requestSubject } from '@doable/contracts-common';
import { z } from 'zod';
import type { UploadLimit } from './upload-limit';

/**
 * Upload endpoints (v7 `/API/v7/uploads/*` and `/api/v7/uploads/*`, v8, v9, api/v1 `/uploads`),
 * forwarded by the gateway: every one needs a principal, checked where the subject is handled.
 */
export const edge = requestSubject<EdgeRequest, EdgeReply>('uploads.edge.v1', edgeRequestSchema, edgeReplySchema);

/**
 * The file-serving route (`/uploads/files/...`), a subject of its own because it is the one
 * upload route without a principal: a file URL is its own authorisation (its signature), so an
 * <img> in a comment, which cannot send a token, can show it.
 */
export const file = requestSubject<EdgeRequest, EdgeReply>('uploads.file.v1', edgeRequestSchema, edgeReplySchema);

/**
 * Asked by the gateway before it stores a byte of an upload: how large a file this caller may
 * send (their plan's `upload_limit_mb`). Refused with a coded error (FEATURE_NOT_IN_PLAN
 * without the `uploads` feature, FORBIDDEN without a writing scope).
 */
export const limit = requestSubject<{ principal: z.infer<typeof principalSchema> }, UploadLimit>(
  'uploads.limit.v1',
  z.object({ principal: principalSchema }),
  z.object({ maxBytes: z.number() }),
);
