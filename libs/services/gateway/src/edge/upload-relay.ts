import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { EdgeReply, Principal } from '@doable/contracts-common';
import { streamedFileKey, UploadsSubjects } from '@doable/contracts-uploads';
import { DomainError } from '@doable/shared-errors';
import { BLOB_STORE, type BlobStore, BlobTooLarge } from '@doable/shared-storage';
import { ServiceClient } from '@doable/shared-transport';
import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { bodyWithoutFormToken, queryWithoutTokens } from '../auth/bearer-token';
import type { RouteMatch } from '../routes/route-table';
import { bodyIncomplete, type MultipartUpload } from '../uploads/multipart-upload';
import { EdgeForwarder } from './edge-forwarder';

/** What multipart framing may add to a file in Content-Length (boundaries, part headers, the small fields). */
const MULTIPART_SLACK_BYTES = 64 * 1024;

/** Set by the route guard on a streamed multipart upload: opened up to its file part once the caller is authenticated (or, for a form token, to find it). */
export const MULTIPART_UPLOAD = Symbol('multipartUpload');
export type WithMultipartUpload = Request & { [MULTIPART_UPLOAD]?: MultipartUpload };

function sizeRefusal(maxBytes: number): DomainError {
  return new DomainError('UPLOAD_SIZE_LIMIT_REACHED', undefined, { limit: 'upload_limit_mb', max_count: maxBytes / (1024 * 1024) });
}

/**
 * A `multipart: 'stream'` route: the file goes from the socket into the blob store under a
 * key of its own (where an upload keeps its original), bounded by the caller's plan, and the
 * service gets the key. A file is never whole in this process's memory and never in a NATS
 * message. It is one of the edge's two ways out (beside the forwarder it ends in); uploads/
 * holds the multipart reading it and the route guard build on.
 */
@Injectable()
export class UploadRelay {
  constructor(
    private readonly services: ServiceClient,
    private readonly forwarder: EdgeForwarder,
    @Inject(BLOB_STORE) private readonly store: BlobStore,
  ) {}

  async relay(req: WithMultipartUpload & { routeMatch?: RouteMatch; user?: Principal }): Promise<EdgeReply> {
    const match = req.routeMatch!;
    const session = req[MULTIPART_UPLOAD];
    try {
      const principal = req.user!;
      // A route with a ceiling of its own (an account import) is not an upload: the plan's
      // upload limit and `uploads` feature do not apply to it.
      const { maxBytes } = match.route.streamLimitBytes !== undefined ? { maxBytes: match.route.streamLimitBytes } : await this.services.request(UploadsSubjects.limit, { principal });
      const declared = Number(req.headers['content-length'] ?? NaN);
      if (Number.isFinite(declared) && declared > maxBytes + (session ? MULTIPART_SLACK_BYTES : 0)) {
        req.res?.setHeader('Connection', 'close');
        throw sizeRefusal(maxBytes);
      }
      const file = session ? session.file : this.rawFile(req);
      if (!file) throw new DomainError('ARGUMENT_MISSING', 'Send the file as a multipart `file` part', { argument: 'file' });
      const key = streamedFileKey(Date.now(), randomUUID());
      let kept = false;
      try {
        let size: number;
        try {
          size = (await this.store.put(key, file.stream, { maxBytes })).size;
        } catch (err) {
          if (err instanceof BlobTooLarge) throw sizeRefusal(maxBytes);
          // The client's fault (a body cut short or malformed, a client gone) is a coded 4xx;
          // only a store that failed on its own is the server's.
          throw session?.failure() ?? (req.readableAborted ? bodyIncomplete() : err);
        }
        const fields = session ? await session.finished : {};
        const body = session ? bodyWithoutFormToken({ headers: req.headers, body: fields, is: (type) => req.is(type) }, match.route) : {};
        const reply = await this.forwarder.forward(match, {
          method: req.method,
          path: req.path,
          query: queryWithoutTokens(req, match.route),
          body,
          principal,
          requestId: req.header('x-request-id'),
          origin: `${req.protocol}://${req.get('host') ?? 'localhost'}`,
          upload: { key, size, fileName: file.fileName, declaredType: file.mimeType },
        });
        // Answered: the service adopted the file where it lies (an upload) or is done with it
        // (an import deletes what it read). Refused or failed: nothing may stay.
        kept = reply.status < 300;
        return reply;
      } finally {
        // The orphan sweep covers a crash before this line.
        if (!kept) await this.store.delete(key).catch(() => undefined);
      }
    } catch (err) {
      if (session) session.abandon();
      else req.resume();
      throw err;
    }
  }

  /** `POST /api/v1/uploads` with the file as the whole body, named by X-File-Name. */
  private rawFile(req: Request): { fileName: string; mimeType: string | null; stream: Readable } {
    if (req.body !== undefined) throw new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Send the file as multipart/form-data, or as the raw body with X-File-Name');
    const fileName = req.header('x-file-name');
    if (!fileName) throw new DomainError('ARGUMENT_MISSING', 'X-File-Name names a raw upload', { argument: 'X-File-Name' });
    let decoded: string;
    try {
      decoded = decodeURIComponent(fileName);
    } catch {
      decoded = fileName;
    }
    return { fileName: decoded, mimeType: req.header('content-type') ?? null, stream: req };
  }
}
