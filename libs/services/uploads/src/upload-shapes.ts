import type { Dialect } from '@doable/contracts-common';
import type { ThumbnailName, UploadRecord } from './upload.repository';
import type { UploadUrls } from './upload-urls';

/**
 * The generations the upload endpoints speak. They share one record and differ only in ids
 * (integers up to v8, strings from v9) and in api/v1's `resource_type` and paginated listing.
 */
export type UploadGeneration = 'v7' | 'v8' | 'v9' | 'v1';

export function generationOf(dialect: Dialect): UploadGeneration {
  switch (dialect) {
    case 'sync-v6':
    case 'sync-v7':
    case 'first-generation':
      return 'v7';
    case 'sync-v8':
    case 'rest-v1':
    case 'rest-v2':
      return 'v8';
    case 'sync-v9':
      return 'v9';
    case 'sync-api-v1':
    case 'rest-api-v1':
    // The assistant server sends no uploads; were it to, it would speak today's shapes.
    case 'mcp':
      return 'v1';
  }
}

const THUMBNAILS: readonly ThumbnailName[] = ['tn_s', 'tn_m', 'tn_l'];

/**
 * The file attachment object uploads/add answers (sync-interface §2): what a client puts in a
 * comment's `file_attachment` as it is. Thumbnails `[url, width, height]` for images, duration
 * in seconds for audio whose length could be read.
 */
export function attachmentOf(record: UploadRecord, generation: UploadGeneration, urls: UploadUrls, origin: string): Record<string, unknown> {
  const attachment: Record<string, unknown> = {
    ...(generation === 'v1' || generation === 'v9' ? { resource_type: 'file' } : {}),
    file_name: record.fileName,
    file_size: record.fileSize,
    file_type: record.fileType,
    file_url: urls.url(origin, record.id, record.fileName),
    upload_state: 'completed',
  };
  for (const name of THUMBNAILS) {
    const size = record.thumbnails[name];
    if (size) attachment[name] = [urls.url(origin, record.id, record.fileName, name), size[0], size[1]];
  }
  if (record.fileDuration !== null) attachment['file_duration'] = record.fileDuration;
  return attachment;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** `Wed 16 Dec 2015 13:18:17 +0000`, as uploads/get showed `uploaded`. */
export function uploadedText(date: Date): string {
  return `${DAYS[date.getUTCDay()]} ${two(date.getUTCDate())} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()} ${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())} +0000`;
}

/** One uploads/get record: integer ids up to v8, strings from v9. */
export function listedUploadOf(record: UploadRecord, generation: UploadGeneration, urls: UploadUrls, origin: string): Record<string, unknown> {
  const id = (value: string | null) => (value === null ? null : generation === 'v7' || generation === 'v8' ? Number(value) : value);
  return {
    id: id(record.id),
    filename: record.fileName,
    file_size: record.fileSize,
    file_type: record.fileType,
    file_url: urls.url(origin, record.id, record.fileName),
    ip: record.ip,
    item_id: id(record.itemId),
    note_id: id(record.noteId),
    project_id: id(record.projectId),
    uploaded: uploadedText(record.uploadedAt),
    user_id: id(record.userId),
  };
}
