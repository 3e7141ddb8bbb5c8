import { Readable } from 'node:stream';
import { DomainError } from '@doable/shared-errors';
import { type MultipartSource, type MultipartUpload, openMultipartUpload } from './multipart-upload';

const BOUNDARY = 'doable-upload-boundary';
const HEAD = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="token"\r\n\r\nsecret\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;

type Ending = 'end' | 'abort' | 'error' | 'never';

/** A request body: `chunks` then its ending (the end of the HTTP body, an abort, a stream error, or nothing yet). */
function body(chunks: string[], ending: Ending): MultipartSource & { readonly finishedReading: () => boolean } {
  const stream = new Readable({ read: () => undefined }) as Readable & { headers: Record<string, string>; finishedReading: () => boolean };
  stream.headers = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
  for (const chunk of chunks) stream.push(Buffer.from(chunk));
  setImmediate(() => {
    if (ending === 'end') stream.push(null);
    else if (ending === 'abort') stream.destroy();
    else if (ending === 'error') stream.destroy(new Error('socket hang up'));
  });
  stream.finishedReading = () => stream.readableEnded || stream.destroyed;
  return stream;
}

async function rejection(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

async function readFile(upload: MultipartUpload): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of upload.file!.stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

describe('openMultipartUpload', () => {
  it('opens up to the file part: the fields before it, the file as a stream, the fields after it once ended', async () => {
    const upload = await openMultipartUpload(body([`${HEAD}hello\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="after"\r\n\r\n1\r\n--${BOUNDARY}--\r\n`], 'end'));
    expect(upload.fields).toEqual({ token: 'secret' });
    expect(upload.file).toMatchObject({ fieldName: 'file', fileName: 'a.bin', mimeType: 'application/octet-stream' });
    expect((await readFile(upload)).toString()).toBe('hello');
    await expect(upload.finished).resolves.toEqual({ token: 'secret', after: '1' });
    expect(upload.failure()).toBeUndefined();
  });

  it('a body cut off before its closing boundary fails the file read and `finished` with a coded 400', async () => {
    const upload = await openMultipartUpload(body([`${HEAD}hello`], 'end'));
    await expect(readFile(upload)).rejects.toThrow();
    expect((await rejection(upload.finished)).code).toBe('INVALID_ARGUMENT_VALUE');
    expect(upload.failure()?.code).toBe('INVALID_ARGUMENT_VALUE');
  });

  it('a body cut off while nobody reads the file yet (authentication pending) leaves no unheard error', async () => {
    const upload = await openMultipartUpload(body([`${HEAD}hello`], 'end'));
    // busboy destroys the paused file part with "Unexpected end of form": without a listener, the process would end here.
    expect((await rejection(upload.finished)).code).toBe('INVALID_ARGUMENT_VALUE');
    expect(upload.file!.stream.destroyed).toBe(true);
  });

  it.each(['abort', 'error'] as const)('a request that ends by %s mid-file fails the reader, `finished` and failure() with BODY_INCOMPLETE', async (ending) => {
    const upload = await openMultipartUpload(body([`${HEAD}${'x'.repeat(50_000)}`], ending));
    await expect(readFile(upload)).rejects.toMatchObject({ code: 'BODY_INCOMPLETE' });
    expect((await rejection(upload.finished)).code).toBe('BODY_INCOMPLETE');
    expect(upload.failure()?.code).toBe('BODY_INCOMPLETE');
  });

  it.each(['abort', 'error'] as const)('a request that ends by %s before the file part rejects the open with BODY_INCOMPLETE', async (ending) => {
    expect((await rejection(openMultipartUpload(body([`--${BOUNDARY}\r\nContent-Disposition: form-data; name="token"\r\n\r\nsec`], ending)))).code).toBe('BODY_INCOMPLETE');
  });

  it('a request aborted while the file waits unread (authentication pending) settles everything', async () => {
    const upload = await openMultipartUpload(body([`${HEAD}partial`], 'abort'));
    expect((await rejection(upload.finished)).code).toBe('BODY_INCOMPLETE');
    expect(upload.file!.stream.destroyed).toBe(true);
  });

  it('abandon() of a refused upload ends the file part and drains the rest of the body without keeping it', async () => {
    const source = body([HEAD, 'y'.repeat(200_000)], 'never');
    const upload = await openMultipartUpload(source);
    upload.abandon();
    await rejection(upload.finished);
    expect(upload.file!.stream.destroyed).toBe(true);
    // Drained: flowing, with no reader holding its bytes.
    expect(source.readableFlowing).toBe(true);
    source.push(null);
    await new Promise((resolve) => setImmediate(resolve));
    expect(source.finishedReading()).toBe(true);
  });

  it('refuses a second file part, with the first read, and no file part at all gives null', async () => {
    const two = await openMultipartUpload(
      body([`${HEAD}one\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="other"; filename="b"\r\n\r\ntwo\r\n--${BOUNDARY}--\r\n`], 'end'),
    );
    expect((await readFile(two)).toString()).toBe('one');
    expect((await rejection(two.finished)).code).toBe('INVALID_ARGUMENT_VALUE');
    const none = await openMultipartUpload(body([`--${BOUNDARY}\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--${BOUNDARY}--\r\n`], 'end'));
    expect([none.file, none.fields]).toEqual([null, { a: '1' }]);
  });

  it('refuses a body without a boundary, and draws the request out', async () => {
    const source = body(['x'], 'end');
    (source.headers as Record<string, string>)['content-type'] = 'multipart/form-data';
    expect((await rejection(openMultipartUpload(source))).code).toBe('INVALID_ARGUMENT_VALUE');
  });
});
