import { createHmac, timingSafeEqual } from 'node:crypto';
import { FILE_PATH_PREFIX } from '@doable/contracts-uploads';
import type { ThumbnailName } from './upload.repository';

export type FileVariant = 'original' | ThumbnailName;

/**
 * File URLs are capabilities: `{origin}/uploads/files/<id>/<signature>/<name>` (a thumbnail:
 * `.../<id>/<signature>/tn_s/<name>`). The signature is an HMAC of the upload id under the
 * service's URL key, so nothing secret is stored per file, the URL cannot be guessed from the
 * id, and every replica computes the same one. Whoever holds the URL may read the file (a
 * comment's attachment is shown to every member of the project); the owner lists and deletes
 * with their token.
 */
export class UploadUrls {
  constructor(private readonly key: string) {}

  signature(id: string): string {
    return createHmac('sha256', this.key).update(`upload:${id}`).digest('base64url').slice(0, 32);
  }

  verify(id: string, signature: string): boolean {
    const expected = Buffer.from(this.signature(id));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  url(origin: string, id: string, fileName: string, variant: FileVariant = 'original'): string {
    const tail = variant === 'original' ? encodeURIComponent(fileName) : `${variant}/${encodeURIComponent(thumbnailName(fileName))}`;
    return `${origin}${FILE_PATH_PREFIX}${id}/${this.signature(id)}/${tail}`;
  }

  /** The upload a URL names (any origin: a comment keeps the URL as the client wrote it), when it is one of ours and its signature holds. */
  parse(url: string): { id: string; variant: FileVariant } | null {
    let path: string;
    try {
      path = new URL(url).pathname;
    } catch {
      return null;
    }
    return this.parsePath(path);
  }

  parsePath(path: string): { id: string; variant: FileVariant } | null {
    if (!path.startsWith(FILE_PATH_PREFIX)) return null;
    const parts = path.slice(FILE_PATH_PREFIX.length).split('/');
    const [id, signature] = parts;
    if (parts.length < 3 || parts.length > 4 || !/^[0-9]{1,18}$/.test(id ?? '') || !this.verify(id, signature ?? '')) return null;
    if (parts.length === 3) return { id, variant: 'original' };
    const variant = parts[2];
    return variant === 'tn_s' || variant === 'tn_m' || variant === 'tn_l' ? { id, variant } : null;
  }
}

/** Thumbnails are JPEG whatever the original was. */
export function thumbnailName(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return `${dot > 0 ? fileName.slice(0, dot) : fileName}.jpg`;
}
