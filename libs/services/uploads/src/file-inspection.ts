import { isUtf8 } from 'node:buffer';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BlobStore } from '@doable/shared-storage';
import { fileTypeFromBuffer } from 'file-type';
import { parseStream } from 'music-metadata';
import sharp from 'sharp';
import type { ThumbnailName, Thumbnails } from './upload.repository';

/** How many leading bytes type detection looks at (file-type's own recommendation). */
const SNIFF_BYTES = 4100;

/** The canonical thumbnail boxes (sync-interface §2, file attachment). */
export const THUMBNAIL_SIZES: Readonly<Record<ThumbnailName, number>> = { tn_s: 96, tn_m: 288, tn_l: 528 };

/** Images larger than this are not decoded for thumbnails (sharp holds a decoded image in memory). */
const MAX_THUMBNAIL_SOURCE_BYTES = 40 * 1024 * 1024;
const MAX_THUMBNAIL_SOURCE_PIXELS = 100_000_000;

/** Text types a client may declare for bytes that are text; any other declaration for text is text/plain. */
const TEXT_TYPES = new Set(['text/plain', 'text/csv', 'text/markdown', 'text/calendar', 'application/json', 'application/xml', 'text/xml']);

/** A stream's bytes, at most `maxBytes` of them (more is an error); the stream is destroyed on every path. */
async function readBounded(stream: Readable, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) throw new Error(`more than ${maxBytes} bytes`);
      chunks.push(chunk as Buffer);
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks);
}

async function leadingBytes(stream: Readable, count: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      if (size >= count) break;
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).subarray(0, count);
}

/**
 * The media type from the bytes, never from the client: what file-type recognises by its
 * signature; otherwise bytes that are UTF-8 text keep a declared text type (text has no
 * signature: CSV, Markdown, JSON) or become text/plain; anything else is
 * application/octet-stream (a file claiming to be an image is served as bytes, not rendered).
 */
export async function detectType(store: BlobStore, key: string, declaredType: string | null): Promise<string> {
  const blob = await store.get(key);
  if (!blob) throw new Error(`staged upload ${key} is missing`);
  const head = await leadingBytes(blob.stream, SNIFF_BYTES);
  const found = await fileTypeFromBuffer(head);
  if (found) return found.mime;
  // A cut in the middle of a multi-byte character at the end of the sample is still text.
  const sample = head.length === SNIFF_BYTES ? head.subarray(0, SNIFF_BYTES - 3) : head;
  if (head.length > 0 && (isUtf8(sample) || isUtf8(head))) {
    const declared = (declaredType ?? '').split(';')[0].trim().toLowerCase();
    return TEXT_TYPES.has(declared) ? declared : 'text/plain';
  }
  return 'application/octet-stream';
}

export function isImage(fileType: string): boolean {
  return ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif', 'image/tiff'].includes(fileType);
}

export function isAudio(fileType: string): boolean {
  return fileType.startsWith('audio/');
}

/**
 * tn_s, tn_m and tn_l of an image: JPEG, fitted inside 96, 288 and 528 pixel squares with the
 * aspect kept and never enlarged (a small image's larger thumbnails are its own size). Each is
 * stored beside the original. Undecodable images get none (they are still uploads).
 */
export async function makeThumbnails(store: BlobStore, sourceKey: string, size: number, targetPrefix: string): Promise<Thumbnails> {
  if (size > MAX_THUMBNAIL_SOURCE_BYTES) return {};
  const blob = await store.get(sourceKey);
  if (!blob) return {};
  const thumbnails: Thumbnails = {};
  try {
    // Read whole first (sharp holds a streamed input whole anyway, and the size is bounded
    // above): a store that fails mid-file rejects here, where a pipe() into sharp would leave
    // the stream's 'error' unheard and the thumbnails waiting for an input that never ends.
    const image = await readBounded(blob.stream, MAX_THUMBNAIL_SOURCE_BYTES);
    const decoder = sharp(image, { limitInputPixels: MAX_THUMBNAIL_SOURCE_PIXELS, failOn: 'error' }).rotate();
    const made = await Promise.all(
      (Object.entries(THUMBNAIL_SIZES) as Array<[ThumbnailName, number]>).map(async ([name, box]) => {
        const { data, info } = await decoder.clone().resize({ width: box, height: box, fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 80 }).toBuffer({ resolveWithObject: true });
        return { name, data, width: info.width, height: info.height };
      }),
    );
    for (const thumbnail of made) {
      await store.put(`${targetPrefix}/${thumbnail.name}`, Readable.from([thumbnail.data]), { contentType: 'image/jpeg' });
      thumbnails[thumbnail.name] = [thumbnail.width, thumbnail.height];
    }
  } catch {
    blob.stream.destroy();
    return {};
  }
  return thumbnails;
}

/** music-metadata picks its parser by extension most reliably (its media-type parsing is stricter than file-type's names). */
const AUDIO_EXTENSIONS: Readonly<Record<string, string>> = {
  'audio/wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/ogg': 'ogg',
  'audio/opus': 'opus',
  'audio/flac': 'flac',
  'audio/x-flac': 'flac',
  'audio/mp4': 'm4a',
  'audio/x-m4a': 'm4a',
  'audio/aac': 'aac',
  'audio/aiff': 'aiff',
  'audio/x-aiff': 'aiff',
  'audio/webm': 'webm',
};

/** An audio file's duration in whole seconds, when its metadata gives one. */
export async function audioDuration(store: BlobStore, key: string, fileType: string): Promise<number | null> {
  const blob = await store.get(key);
  if (!blob) return null;
  try {
    const extension = AUDIO_EXTENSIONS[fileType];
    // Through a PassThrough: a file stream's own `path` (no extension) would override ours.
    // pipeline, not pipe(): a store failing mid-file fails the parse instead of an unheard 'error'.
    const through = new PassThrough();
    pipeline(blob.stream, through).catch(() => undefined);
    const metadata = await parseStream(through, { size: blob.size, ...(extension ? { path: `audio.${extension}` } : {}) }, { duration: true, skipCovers: true });
    const seconds = metadata.format.duration;
    return seconds === undefined || !Number.isFinite(seconds) ? null : Math.round(seconds);
  } catch {
    return null;
  } finally {
    blob.stream.destroy();
  }
}
