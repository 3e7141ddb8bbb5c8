import { finished as whenFinished, type Readable } from 'node:stream';
import { DomainError } from '@doable/shared-errors';
import busboy from 'busboy';
import type { IncomingHttpHeaders } from 'node:http';

/** What a multipart body may hold besides its one file: a few small fields. */
export const MULTIPART_FIELD_LIMITS = { fields: 20, fieldBytes: 64 * 1024 } as const;

export interface MultipartSource extends Readable {
  readonly headers: IncomingHttpHeaders;
}

export function isMultipart(headers: IncomingHttpHeaders): boolean {
  return /^multipart\/form-data\s*;/i.test(headers['content-type'] ?? '');
}

export interface FilePart {
  readonly fieldName: string;
  readonly fileName: string;
  readonly mimeType: string | null;
  readonly stream: Readable;
}

/**
 * A streamed multipart upload, opened up to its file part: the fields that came before the
 * file (the v7/v8 `token` among them), the file part as a paused stream (busboy reads no
 * further until it is consumed), and the fields after it once the body has ended.
 */
export interface MultipartUpload {
  readonly fields: Record<string, string>;
  readonly file: FilePart | null;
  /** Every field, the ones after the file included, once the whole body is read. */
  readonly finished: Promise<Record<string, string>>;
  /** Drops the rest of the body (a refused request): read and discarded, never buffered; the file part ends with an error. */
  abandon(): void;
  /** Why the body was refused once the file had started (a malformed end, a second file, a client gone), if it was. */
  failure(): DomainError | undefined;
}

function malformed(message: string): DomainError {
  return new DomainError('INVALID_ARGUMENT_VALUE', message);
}

/** The client went away (or the edge's deadline closed the connection) before the body's end. */
export function bodyIncomplete(): DomainError {
  return new DomainError('BODY_INCOMPLETE', 'The request body stopped before its end');
}

/**
 * Opens a multipart body for streaming. Reads the fields before the file part (bounded:
 * MULTIPART_FIELD_LIMITS) and stops at the file, which the caller consumes or abandons.
 *
 * Every stream here has an error path: the file part always has an 'error' listener (busboy
 * destroys it with an error when the body is cut short, and an unheard 'error' ends the
 * process); the request's own end is watched, so a client that aborts or is cut off by the
 * deadline fails the parser, the file part and `finished` instead of leaving them pending.
 */
export function openMultipartUpload(req: MultipartSource): Promise<MultipartUpload> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { files: 1, fields: MULTIPART_FIELD_LIMITS.fields, fieldSize: MULTIPART_FIELD_LIMITS.fieldBytes, parts: MULTIPART_FIELD_LIMITS.fields + 1 },
      });
    } catch {
      req.resume();
      reject(malformed('Malformed multipart/form-data body (boundary missing)'));
      return;
    }
    const fields: Record<string, string> = {};
    let opened = false;
    let settled = false;
    let failure: DomainError | undefined;
    let settleFinished: { ok: (fields: Record<string, string>) => void; fail: (error: DomainError) => void } = { ok: () => undefined, fail: () => undefined };
    const finished = new Promise<Record<string, string>>((ok, fail) => (settleFinished = { ok, fail }));
    finished.catch(() => undefined);
    const fail = (error: DomainError): void => {
      failure ??= error;
    };
    /** A parser or file error as a coded refusal: a body that stopped is not a malformed one. */
    const refusalFor = (err: unknown): DomainError => {
      if (err instanceof DomainError) return err;
      if (req.readableAborted) return bodyIncomplete();
      return malformed(`Malformed multipart/form-data body (${err instanceof Error ? err.message : 'unreadable'})`);
    };
    const drain = (): void => {
      req.unpipe(parser);
      req.resume();
    };
    const abandon = (): void => {
      drain();
      // Ends the file part (with an error its listener below hears) and frees busboy's buffers.
      parser.destroy();
    };
    const open = (file: FilePart | null): void => {
      opened = true;
      resolve({ fields: { ...fields }, file, finished, abandon, failure: () => failure });
    };
    const settle = (): void => {
      if (settled) return;
      settled = true;
      stopWatchingSource();
      if (failure) {
        drain();
        settleFinished.fail(failure);
        if (!opened) reject(failure);
        return;
      }
      settleFinished.ok({ ...fields });
      if (!opened) open(null);
    };
    // pipe() carries no error or abort from the request to busboy: watch the request's end here.
    const stopWatchingSource = whenFinished(req, { writable: false }, (err) => {
      if (!err || settled) return;
      fail(bodyIncomplete());
      req.unpipe(parser);
      parser.destroy(failure);
    });
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) return fail(new DomainError('PAYLOAD_TOO_LARGE', `Field ${name} is larger than ${MULTIPART_FIELD_LIMITS.fieldBytes} bytes`));
      if (info.nameTruncated) return fail(malformed('Field name too long'));
      fields[name] = value;
    });
    parser.on('file', (fieldName, stream, info) => {
      // The reader (the blob store) hears the error too; this one keeps it from being unheard
      // while nobody reads yet (authentication) or after the reader gave up.
      stream.on('error', (err) => fail(refusalFor(err)));
      if (opened || failure) {
        stream.resume();
        return;
      }
      open({ fieldName, fileName: info.filename ?? '', mimeType: info.mimeType || null, stream });
    });
    parser.on('filesLimit', () => fail(malformed('Only one file may be sent')));
    parser.on('fieldsLimit', () => fail(malformed(`At most ${MULTIPART_FIELD_LIMITS.fields} fields may be sent`)));
    parser.on('partsLimit', () => fail(malformed(`At most ${MULTIPART_FIELD_LIMITS.fields + 1} parts may be sent`)));
    parser.on('error', (err) => {
      fail(refusalFor(err));
      settle();
    });
    parser.on('close', settle);
    req.pipe(parser);
  });
}
