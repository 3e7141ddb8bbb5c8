import { isUtf8 } from 'node:buffer';
import { DomainError } from '@doable/shared-errors';
import { MULTIPART_FIELD_LIMITS, type MultipartSource, type MultipartUpload, openMultipartUpload } from './multipart-upload';

export { isMultipart, type MultipartSource } from './multipart-upload';

/** What an inline multipart body may hold: small files only (a template CSV), parsed whole. */
export const INLINE_MULTIPART_LIMITS = { fileBytes: 1024 * 1024, ...MULTIPART_FIELD_LIMITS } as const;

/**
 * A `multipart: 'inline'` route's body as a plain object: fields as strings and the one file
 * part's content as UTF-8 text under its field name (`file`), so the service sees what a form
 * body would give it. Bounded (INLINE_MULTIPART_LIMITS): past a bound the request is refused
 * with a coded 4xx and the rest of the body is drained, not buffered.
 */
export async function parseInlineMultipart(req: MultipartSource): Promise<Record<string, string>> {
  return readInlineMultipart(await openMultipartUpload(req));
}

/**
 * The rest of an opened multipart body as an inline body: the file read whole (at most 1 MiB)
 * and the fields after it. The route guard opens the body up to the file to find a form token,
 * authenticates, and only then reads the file through this.
 */
export async function readInlineMultipart(upload: MultipartUpload): Promise<Record<string, string>> {
  if (!upload.file) return upload.finished;
  const { fieldName, stream } = upload.file;
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > INLINE_MULTIPART_LIMITS.fileBytes) throw new DomainError('PAYLOAD_TOO_LARGE', `The file is larger than ${INLINE_MULTIPART_LIMITS.fileBytes} bytes`);
      chunks.push(chunk);
    }
  } catch (err) {
    upload.abandon();
    // Our own refusal (too large) first; else why busboy or the request ended the file.
    throw err instanceof DomainError ? err : (upload.failure() ?? new DomainError('BODY_INCOMPLETE', 'The request body stopped before its end'));
  }
  const fields = await upload.finished;
  const bytes = Buffer.concat(chunks);
  if (!isUtf8(bytes)) throw new DomainError('INVALID_UTF8', 'The file is not UTF-8 text');
  return { ...fields, [fieldName]: bytes.toString('utf8') };
}
