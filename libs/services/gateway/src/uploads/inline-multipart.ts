import { isUtf8 } from 'node:buffer';
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { DomainError } from '@doable/shared-errors';
import busboy from 'busboy';

/** What an inline multipart body may hold: small files only (a template CSV), parsed whole. */
export const INLINE_MULTIPART_LIMITS = { fileBytes: 1024 * 1024, fields: 20, fieldBytes: 64 * 1024 } as const;

export interface MultipartSource extends Readable {
  readonly headers: IncomingHttpHeaders;
}

export function isMultipart(headers: IncomingHttpHeaders): boolean {
  return /^multipart\/form-data\s*;/i.test(headers['content-type'] ?? '');
}

function malformed(message: string): DomainError {
  return new DomainError('INVALID_ARGUMENT_VALUE', message);
}

/**
 * A `multipart: 'inline'` route's body as a plain object: fields as strings and the one file
 * part's content as UTF-8 text under its field name (`file`), so the service sees what a form
 * body would give it. Bounded (INLINE_MULTIPART_LIMITS): past a bound the request is refused
 * with a coded 4xx and the rest of the body is drained, not buffered.
 */
export function parseInlineMultipart(req: MultipartSource): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { files: 1, fields: INLINE_MULTIPART_LIMITS.fields, fieldSize: INLINE_MULTIPART_LIMITS.fieldBytes, // busboy calls a file of exactly fileSize bytes truncated: allow one more and count ourselves.
        fileSize: INLINE_MULTIPART_LIMITS.fileBytes + 1,
        parts: INLINE_MULTIPART_LIMITS.fields + 1 },
      });
    } catch {
      reject(malformed('Malformed multipart/form-data body (boundary missing)'));
      return;
    }
    const body: Record<string, string> = {};
    let failure: DomainError | undefined;
    const fail = (error: DomainError): void => {
      failure ??= error;
    };
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) return fail(new DomainError('PAYLOAD_TOO_LARGE', `Field ${name} is larger than ${INLINE_MULTIPART_LIMITS.fieldBytes} bytes`));
      if (info.nameTruncated) return fail(malformed('Field name too long'));
      body[name] = value;
    });
    parser.on('file', (name, stream) => {
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > INLINE_MULTIPART_LIMITS.fileBytes) fail(new DomainError('PAYLOAD_TOO_LARGE', `The file is larger than ${INLINE_MULTIPART_LIMITS.fileBytes} bytes`));
        if (!failure) chunks.push(chunk);
      });
      stream.on('end', () => {
        if (failure) return;
        const bytes = Buffer.concat(chunks);
        if (!isUtf8(bytes)) return fail(new DomainError('INVALID_UTF8', 'The file is not UTF-8 text'));
        body[name] = bytes.toString('utf8');
      });
    });
    parser.on('filesLimit', () => fail(malformed('Only one file may be sent')));
    parser.on('fieldsLimit', () => fail(malformed(`At most ${INLINE_MULTIPART_LIMITS.fields} fields may be sent`)));
    parser.on('partsLimit', () => fail(malformed(`At most ${INLINE_MULTIPART_LIMITS.fields + 1} parts may be sent`)));
    parser.on('error', () => {
      req.unpipe(parser);
      req.resume();
      reject(failure ?? malformed('Malformed multipart/form-data body'));
    });
    parser.on('close', () => (failure ? reject(failure) : resolve(body)));
    req.pipe(parser);
  });
}
