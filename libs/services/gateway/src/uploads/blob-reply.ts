import { pipeline } from 'node:stream/promises';
import type { EdgeReply } from '@doable/contracts-common';
import { DomainError } from '@doable/shared-errors';
import type { BlobStore } from '@doable/shared-storage';
import type { Response } from 'express';

/** `filename="ascii"; filename*=UTF-8''utf8` (RFC 6266): every browser gets a usable name, none can be tricked by quotes. */
export function contentDisposition(disposition: 'inline' | 'attachment', fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * Sends a reply whose body is a stored file (EdgeReply.blob): streamed from the blob store,
 * never held whole. For uploads and backups alike. The file is served as the type the service
 * detected, never sniffed by the browser, and sandboxed (no script on our origin).
 */
export async function sendBlobReply(store: BlobStore, reply: EdgeReply, res: Response): Promise<void> {
  const blob = reply.blob!;
  const stored = await store.get(blob.key);
  if (!stored) throw new DomainError('NOT_FOUND', 'No such file');
  for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
  res.status(reply.status);
  res.setHeader('Content-Type', blob.contentType);
  res.setHeader('Content-Length', String(stored.size));
  res.setHeader('Content-Disposition', contentDisposition(blob.disposition ?? 'attachment', blob.fileName));
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', "default-src 'none'; img-src 'self'; media-src 'self'; sandbox");
  if (!res.hasHeader('Cache-Control')) res.setHeader('Cache-Control', 'private, no-cache');
  try {
    await pipeline(stored.stream, res);
  } catch {
    // The client went away, or the store failed mid-file: the status is sent, only the connection can tell.
    res.destroy();
  }
}
