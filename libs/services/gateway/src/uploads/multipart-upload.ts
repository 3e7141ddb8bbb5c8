import type { Readable } from 'node:stream';
import { DomainError } from '@doable/shared-errors';
import busboy from 'busboy';
import { INLINE_MULTIPART_LIMITS, type MultipartSource } from './inline-multipart';

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
  /** Drops the rest of the body (a refused request): read and discarded, never buffered. */
  abandon(): void;
  /** Why the body was refused once the file had started (a malformed end, a second file), if it was. */
  failure(): DomainError | undefined;
}

function malformed(message: string): DomainError {
  return new DomainError('INVALID_ARGUMENT_VALUE', message);
}

/**
 * Opens a multipart body for streaming. A token field after the file part is not seen before
 * the file would have to be stored: such a request is refused (401) unless it carries an
 * Authorization header; clients send the token first (the v7 docs' order) or in the header.
 */
export function openMultipartUpload(req: MultipartSource): Promise<MultipartUpload> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { files: 1, fields: INLINE_MULTIPART_LIMITS.fields, fieldSize: INLINE_MULTIPART_LIMITS.fieldBytes, parts: INLINE_MULTIPART_LIMITS.fields + 1 },
      });
    } catch {
      reject(malformed('Malformed multipart/form-data body (boundary missing)'));
      return;
    }
    const fields: Record<string, string> = {};
    let opened = false;
    let failure: DomainError | undefined;
    let settleFinished: { ok: (fields: Record<string, string>) => void; fail: (error: DomainError) => void } = { ok: () => undefined, fail: () => undefined };
    const finished = new Promise<Record<string, string>>((ok, fail) => (settleFinished = { ok, fail }));
    finished.catch(() => undefined);
    const abandon = (): void => {
      req.unpipe(parser);
      req.resume();
    };
    const open = (file: FilePart | null): void => {
      opened = true;
      resolve({ fields: { ...fields }, file, finished, abandon, failure: () => failure });
    };
    const fail = (error: DomainError): void => {
      failure ??= error;
    };
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) return fail(new DomainError('PAYLOAD_TOO_LARGE', `Field ${name} is larger than ${INLINE_MULTIPART_LIMITS.fieldBytes} bytes`));
      fields[name] = value;
    });
    parser.on('file', (fieldName, stream, info) => {
      if (opened || failure) {
        stream.resume();
        return;
      }
      open({ fieldName, fileName: info.filename ?? '', mimeType: info.mimeType || null, stream });
    });
    parser.on('filesLimit', () => fail(malformed('Only one file may be sent')));
    parser.on('fieldsLimit', () => fail(malformed(`At most ${INLINE_MULTIPART_LIMITS.fields} fields may be sent`)));
    parser.on('partsLimit', () => fail(malformed(`At most ${INLINE_MULTIPART_LIMITS.fields + 1} parts may be sent`)));
    parser.on('error', () => {
      abandon();
      failure ??= malformed('Malformed multipart/form-data body');
      const error = failure;
      settleFinished.fail(error);
      if (!opened) reject(error);
    });
    parser.on('close', () => {
      if (failure) {
        settleFinished.fail(failure);
        if (!opened) reject(failure);
        return;
      }
      settleFinished.ok({ ...fields });
      if (!opened) open(null);
    });
    req.pipe(parser);
  });
}
