import fc from 'fast-check';
import { zipSync } from 'fflate';
import type { Route } from '@doable/gateway/routes';
import type { RawRequest } from '../support/raw-http';
import { zipArchive, zipEntry } from '../support/zip-archive';

/**
 * The stream class of the fuzzer (issue #28): bodies that stop, stall at the wrong place, or
 * are shaped to exhaust a parser. Each is sent on its own socket (fetch cannot cut a body
 * short); after each the process must still answer, any answer must be a coded 4xx, and no
 * blob or temporary file may stay.
 */
export type StreamKind = 'cut-multipart' | 'raw-half' | 'abort-mid-body' | 'part-too-large' | 'no-file' | 'two-files' | 'zip-truncated' | 'zip-bomb';

export interface StreamCase {
  readonly kind: StreamKind;
  readonly request: RawRequest;
  readonly describe: string;
  readonly target: string;
}

const MULTIPART_KINDS: readonly StreamKind[] = ['cut-multipart', 'raw-half', 'abort-mid-body', 'part-too-large', 'no-file', 'two-files'];
/** A route without multipart still gets bodies that stop: its body parser must free them too. */
const PLAIN_KINDS: readonly StreamKind[] = ['cut-multipart', 'raw-half', 'abort-mid-body'];
const IMPORT_PATH = '/api/v1/import/todoist';

function part(boundary: string, name: string, value: Buffer, fileName?: string): Buffer {
  const disposition = fileName === undefined ? `form-data; name="${name}"` : `form-data; name="${name}"; filename="${fileName}"\r\nContent-Type: application/octet-stream`;
  return Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n`), value, Buffer.from('\r\n')]);
}

const closing = (boundary: string) => Buffer.from(`--${boundary}--\r\n`);

/** A Todoist backup as the import expects it (one project CSV), to be cut short. */
const smallBackup = Buffer.from(zipSync({ 'Inbox [1].csv': new TextEncoder().encode('TYPE,CONTENT,PRIORITY\ntask,Fuzzed,1\n'.repeat(200)) }));

const bombs = new Map<boolean, Buffer>();
/**
 * A ZIP of twelve CSVs of 24 MB of zeros each (about 290 MB inflated, ~300 KB zipped): made
 * once, the one deflated entry repeated, so building it costs one compression. A lying bomb
 * declares 1 KB per entry: only counting what it inflates can refuse it.
 */
export function zipBomb(lying: boolean): Buffer {
  const made = bombs.get(lying);
  if (made) return made;
  const zeros = Buffer.alloc(24 * 1024 * 1024);
  const entry = zipEntry('bomb.csv', zeros);
  const bomb = zipArchive(Array.from({ length: 12 }, (_, index) => ({ ...entry, name: `bomb ${index} [${index + 1}].csv`, declaredSize: lying ? 1024 : zeros.length })));
  bombs.set(lying, bomb);
  return bomb;
}

/** The route's path with every parameter filled (an id that may or may not exist: the body is what is fuzzed). */
function concretePath(route: Route): string {
  return route.path.replace(/:[A-Za-z_]+/g, '1');
}

/** How many stream cases a route gets, at `perTarget` cases per target: a multipart route is the class's main target. */
export function streamCasesFor(route: Route, perTarget: number): number {
  return route.multipart ? perTarget * 4 : Math.ceil(perTarget / 2);
}

export function streamCase(route: Route, token: string): fc.Arbitrary<StreamCase> {
  const kinds = route.path === IMPORT_PATH ? [...MULTIPART_KINDS, 'zip-truncated', 'zip-bomb'] : route.multipart ? MULTIPART_KINDS : PLAIN_KINDS;
  const path = concretePath(route);
  const target = `${route.method} ${route.path}`;
  return fc
    .record({
      kind: fc.constantFrom(...(kinds as StreamKind[])),
      credential: fc.constantFrom('header', 'header', 'none', 'wrong', 'form'),
      boundary: fc.stringMatching(/^[A-Za-z0-9'()+_,-]{1,40}$/),
      fileBytes: fc.integer({ min: 0, max: 256 * 1024 }),
      cut: fc.double({ min: 0.05, max: 0.95, noNaN: true }),
      extraFields: fc.array(fc.tuple(fc.stringMatching(/^[a-z_]{1,12}$/), fc.string({ maxLength: 40 })), { maxLength: 4 }),
    })
    .map(({ kind, credential, boundary, fileBytes, cut, extraFields }): StreamCase => {
      const headers: Record<string, string> = { 'content-type': `multipart/form-data; boundary=${boundary}` };
      if (credential === 'header') headers['authorization'] = `Bearer ${token}`;
      if (credential === 'wrong') headers['authorization'] = 'Bearer 0000000000000000000000000000000000000000';
      const fields = Buffer.concat([
        ...(credential === 'form' ? [part(boundary, 'token', Buffer.from(token))] : []),
        ...extraFields.filter(([name]) => name !== 'token').map(([name, value]) => part(boundary, name, Buffer.from(value))),
      ]);
      const file = Buffer.alloc(fileBytes, 0x61);
      const at = (bytes: Buffer) => Math.max(1, Math.floor(bytes.length * cut));
      let request: RawRequest;
      switch (kind) {
        case 'cut-multipart':
          // The issue #28 reproduction: the whole body per Content-Length, no closing boundary.
          request = { path, headers, body: Buffer.concat([fields, part(boundary, 'file', file, 'a.txt').subarray(0, -2)]) };
          break;
        case 'raw-half': {
          // A raw body announced whole, sent half-way, then the client is gone.
          const whole = Buffer.concat([Buffer.from(`${'x'.repeat(64)}`), file]);
          request = { path, headers: { ...headers, 'content-type': 'application/octet-stream', 'x-file-name': 'half.bin' }, body: whole.subarray(0, at(whole)), declaredLength: whole.length, ending: 'abort' };
          break;
        }
        case 'abort-mid-body': {
          const whole = Buffer.concat([fields, part(boundary, 'file', file, 'a.bin'), closing(boundary)]);
          request = { path, headers, body: whole.subarray(0, at(whole)), declaredLength: whole.length, ending: 'abort' };
          break;
        }
        case 'part-too-large': {
          // A field past its 64 KiB bound, or (inline routes) a file past 1 MiB.
          const big = route.multipart === 'inline' && cut > 0.5 ? part(boundary, 'file', Buffer.alloc(1024 * 1024 + 1, 0x62), 'big.csv') : part(boundary, 'note', Buffer.alloc(64 * 1024 + 1, 0x62));
          request = { path, headers, body: Buffer.concat([fields, big, closing(boundary)]) };
          break;
        }
        case 'no-file':
          request = { path, headers, body: Buffer.concat([fields, closing(boundary)]) };
          break;
        case 'two-files':
          request = { path, headers, body: Buffer.concat([fields, part(boundary, 'file', file, 'a.bin'), part(boundary, 'file', Buffer.from('second'), 'b.bin'), closing(boundary)]) };
          break;
        case 'zip-truncated':
          request = { path, headers, body: Buffer.concat([fields, part(boundary, 'file', smallBackup.subarray(0, at(smallBackup)), 'backup.zip'), closing(boundary)]) };
          break;
        case 'zip-bomb':
          // Honest sizes (refused from its headers) or lying ones (refused by counting).
          request = { path, headers, body: Buffer.concat([fields, part(boundary, 'file', zipBomb(cut > 0.5), 'backup.zip'), closing(boundary)]) };
          break;
      }
      const size = request.declaredLength ?? request.body.length;
      return { kind, request: { ...request, method: route.method }, target, describe: `${route.method} ${path} ${kind} (${credential} credential, ${request.body.length}/${size} bytes, boundary ${boundary})` };
    });
}
