import { Readable } from 'node:stream';
import { DomainError } from '@doable/shared-errors';
import { INLINE_MULTIPART_LIMITS, isMultipart, type MultipartSource, parseInlineMultipart } from './inline-multipart';

const BOUNDARY = 'doable-test-boundary';

type Part = { name: string; value: string | Buffer; fileName?: string };

function multipart(parts: Part[], boundary = BOUNDARY): MultipartSource {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = part.fileName === undefined ? `form-data; name="${part.name}"` : `form-data; name="${part.name}"; filename="${part.fileName}"`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.fileName === undefined ? '' : 'Content-Type: text/csv\r\n'}\r\n`));
    chunks.push(Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  const stream = Readable.from([Buffer.concat(chunks)]) as Readable & { headers: Record<string, string> };
  stream.headers = { 'content-type': `multipart/form-data; boundary=${boundary}` };
  return stream;
}

/**
 * A request body that stops after `text`: at its end (a complete HTTP body without the closing
 * boundary), by an abort (the socket closed), or with an error on the request stream.
 */
function source(text: string, ending: 'end' | 'abort' | 'error'): MultipartSource {
  const stream = new Readable({ read: () => undefined }) as Readable & { headers: Record<string, string> };
  stream.headers = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
  stream.push(Buffer.from(text));
  setImmediate(() => {
    if (ending === 'end') stream.push(null);
    else if (ending === 'abort') stream.destroy();
    else stream.destroy(new Error('socket hang up'));
  });
  return stream;
}

async function refusal(source: MultipartSource): Promise<DomainError> {
  const error = await parseInlineMultipart(source).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe('parseInlineMultipart', () => {
  it('gives fields as strings and the file part as UTF-8 text under its field name', async () => {
    const body = await parseInlineMultipart(
      multipart([
        { name: 'project_id', value: '123' },
        { name: 'file', value: 'TYPE,CONTENT\ntask,Café ☕\n', fileName: 'template.csv' },
      ]),
    );
    expect(body).toEqual({ project_id: '123', file: 'TYPE,CONTENT\ntask,Café ☕\n' });
  });

  it('takes a file of exactly 1 MiB and refuses one byte more (413)', async () => {
    const exact = Buffer.alloc(INLINE_MULTIPART_LIMITS.fileBytes, 'a');
    await expect(parseInlineMultipart(multipart([{ name: 'file', value: exact, fileName: 'a.csv' }]))).resolves.toEqual({ file: exact.toString() });
    const over = Buffer.alloc(INLINE_MULTIPART_LIMITS.fileBytes + 1, 'a');
    expect((await refusal(multipart([{ name: 'file', value: over, fileName: 'a.csv' }]))).code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('refuses a second file, too many fields, a field too long and a non-UTF-8 file with coded errors', async () => {
    const two = multipart([
      { name: 'file', value: 'a', fileName: 'a.csv' },
      { name: 'other', value: 'b', fileName: 'b.csv' },
    ]);
    expect((await refusal(two)).code).toBe('INVALID_ARGUMENT_VALUE');
    const fields = Array.from({ length: INLINE_MULTIPART_LIMITS.fields + 1 }, (_, index) => ({ name: `f${index}`, value: 'x' }));
    expect((await refusal(multipart(fields))).code).toBe('INVALID_ARGUMENT_VALUE');
    expect((await refusal(multipart([{ name: 'long', value: 'x'.repeat(INLINE_MULTIPART_LIMITS.fieldBytes + 1) }]))).code).toBe('PAYLOAD_TOO_LARGE');
    expect((await refusal(multipart([{ name: 'file', value: Buffer.from([0xff, 0xfe, 0x00]), fileName: 'a.csv' }]))).code).toBe('INVALID_UTF8');
  });

  it('refuses a multipart body without a boundary or cut short', async () => {
    const noBoundary = Readable.from([Buffer.from('x')]) as Readable & { headers: Record<string, string> };
    noBoundary.headers = { 'content-type': 'multipart/form-data; charset=utf-8' };
    expect((await refusal(noBoundary)).code).toBe('INVALID_ARGUMENT_VALUE');
    const cut = Readable.from([Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="a"\r\n\r\nvalue`)]) as Readable & { headers: Record<string, string> };
    cut.headers = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
    expect((await refusal(cut)).code).toBe('INVALID_ARGUMENT_VALUE');
  });

  it('refuses a body cut off before its closing boundary inside the file part (the issue #28 reproduction), with no unheard error', async () => {
    const stopped = source(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello`, 'end');
    expect((await refusal(stopped)).code).toBe('INVALID_ARGUMENT_VALUE');
  });

  it('refuses with BODY_INCOMPLETE when the client aborts or the request stream fails mid-file', async () => {
    for (const ending of ['abort', 'error'] as const) {
      const stopped = source(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\n${'x'.repeat(10_000)}`, ending);
      expect({ ending, code: (await refusal(stopped)).code }).toEqual({ ending, code: 'BODY_INCOMPLETE' });
    }
  });

  it('refuses with BODY_INCOMPLETE when the client aborts among the fields, before any file', async () => {
    const stopped = source(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="project_id"\r\n\r\n12`, 'abort');
    expect((await refusal(stopped)).code).toBe('BODY_INCOMPLETE');
  });

  it('recognises multipart content types only', () => {
    expect(isMultipart({ 'content-type': 'multipart/form-data; boundary=x' })).toBe(true);
    expect(isMultipart({ 'content-type': 'application/json' })).toBe(false);
    expect(isMultipart({})).toBe(false);
  });
});
