import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import type { Route } from '@doable/gateway/routes';
import { idValue, oddArgs, oddString, oddValue } from './odd-values';

/** One HTTP request as the fuzzer sends it: bytes, not objects, so broken encodings can be sent too. */
export interface FuzzRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: Buffer;
  /** What was generated, for the failure report (bodies abbreviated). */
  readonly describe: string;
  /** The route template or command types fuzzed: findings are grouped by it. */
  readonly target: string;
  /**
   * Whose code answers what this request is about: the gateway's HTTP edge for bodies no
   * serializer writes and paths no URL decoder reads, auth-oauth for its own routes, else the
   * task domain (sync and rest).
   */
  readonly owner: FuzzOwner;
}

export type FuzzOwner = 'domain' | 'gateway-edge' | 'auth-oauth';

/** A path whose percent-escapes are not UTF-8: refused while the URL is decoded, before any service. */
function undecodablePath(path: string): boolean {
  try {
    decodeURIComponent(path.split('?')[0]);
    return false;
  } catch {
    return true;
  }
}

const DEPTH = 5_000;

/**
 * Bodies no serializer would write: each must be a coded 4xx, never a 5xx. Most are the HTTP
 * edge's to refuse (depth, encodings, charsets, parse errors); those marked `domain` parse into
 * JSON values the services themselves must refuse (NUL, lone surrogates, non-object bodies).
 */
const RAW_BODIES: ReadonlyArray<{ name: string; domain?: true; headers: Record<string, string>; body: () => Buffer }> = [
  { name: 'deep JSON array', headers: { 'content-type': 'application/json' }, body: () => Buffer.from('['.repeat(DEPTH) + ']'.repeat(DEPTH)) },
  { name: 'deep JSON object', headers: { 'content-type': 'application/json' }, body: () => Buffer.from('{"a":'.repeat(DEPTH) + '1' + '}'.repeat(DEPTH)) },
  { name: 'deep JSON in commands', headers: { 'content-type': 'application/json' }, body: () => Buffer.from(`{"commands":[{"type":"item_add","uuid":"x","args":${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}}]}`) },
  { name: 'truncated JSON', headers: { 'content-type': 'application/json' }, body: () => Buffer.from('{"content": "a') },
  { name: 'JSON with a NUL escape', domain: true, headers: { 'content-type': 'application/json' }, body: () => Buffer.from('{"content":"a\\u0000b","name":"a\\u0000b","commands":"[]"}') },
  { name: 'JSON with a lone surrogate', domain: true, headers: { 'content-type': 'application/json' }, body: () => Buffer.from('{"content":"a\\ud800b","name":"\\udc00"}') },
  { name: 'invalid UTF-8 JSON', headers: { 'content-type': 'application/json' }, body: () => Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x22, 0x7d]) },
  { name: 'invalid UTF-8 form', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: () => Buffer.from('content=%FF%FE&name=%C3') },
  { name: 'form with a NUL', domain: true, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: () => Buffer.from('content=a%00b&name=%00&commands=%5B%5D') },
  { name: '10,001 form parameters', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: () => Buffer.from(Array.from({ length: 10_001 }, (_, i) => `p${i}=1`).join('&')) },
  { name: 'garbage gzip', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: () => Buffer.from('this is not gzip at all') },
  { name: 'garbage deflate', headers: { 'content-type': 'application/json', 'content-encoding': 'deflate' }, body: () => Buffer.from([1, 2, 3, 4, 5]) },
  { name: 'gzip of deep JSON', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: () => gzipSync('['.repeat(DEPTH) + ']'.repeat(DEPTH)) },
  { name: 'unknown encoding', headers: { 'content-type': 'application/json', 'content-encoding': 'bogus' }, body: () => Buffer.from('{}') },
  { name: 'unknown charset', headers: { 'content-type': 'application/json; charset=bogus-8' }, body: () => Buffer.from('{}') },
  { name: 'latin1 charset', headers: { 'content-type': 'application/x-www-form-urlencoded; charset=latin1' }, body: () => Buffer.from('content=%E9') },
  { name: 'multipart without a boundary', headers: { 'content-type': 'multipart/form-data' }, body: () => Buffer.from('--x\r\n\r\n') },
  { name: 'text/plain', headers: { 'content-type': 'text/plain' }, body: () => Buffer.from('content=hello') },
  { name: 'JSON null', domain: true, headers: { 'content-type': 'application/json' }, body: () => Buffer.from('null') },
  { name: 'JSON string', domain: true, headers: { 'content-type': 'application/json' }, body: () => Buffer.from('"hello"') },
  { name: 'JSON array', domain: true, headers: { 'content-type': 'application/json' }, body: () => Buffer.from('[1,2,3]') },
  { name: 'JSON with __proto__', domain: true, headers: { 'content-type': 'application/json' }, body: () => Buffer.from('{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}},"content":"p"}') },
];

function encodePathValue(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? 'undefined';
  try {
    return encodeURIComponent(text);
  } catch {
    // A lone surrogate cannot be percent-encoded as UTF-8: send it as the broken escape a
    // careless client would.
    return text.replace(/[^A-Za-z0-9_.~-]/g, (c) => `%${(c.charCodeAt(0) & 0xff).toString(16).padStart(2, '0')}`);
  }
}

function formValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value) ?? '';
}

/** Like URLSearchParams, but a lone surrogate is sent, not replaced with U+FFFD. */
function formEncode(args: Record<string, unknown>): string {
  return Object.entries(args).map(([key, value]) => `${encodePathValue(key)}=${encodePathValue(formValue(value))}`).join('&');
}

function abbreviate(text: string): string {
  return text.length > 160 ? `${text.slice(0, 160)}... (${text.length} chars)` : text;
}

function fill(path: string, ids: readonly unknown[]): string {
  let next = 0;
  return path.replace(/:[a-z_]+/g, () => encodePathValue(ids[next++]));
}

/**
 * A request for one route of the gateway's route table: its path parameters odd ids, its query
 * and body odd arguments, sent as JSON, as a form, or as one of the raw bodies above.
 */
export function routeRequest(routes: readonly Route[], realIds: readonly string[], token: string, sensible: Record<string, unknown> = {}): fc.Arbitrary<FuzzRequest> {
  const body = fc.oneof(
    { weight: 5, arbitrary: oddArgs(realIds, sensible).map((args) => ({ kind: 'json', args })) },
    { weight: 3, arbitrary: oddArgs(realIds, sensible).map((args) => ({ kind: 'form', args })) },
    { weight: 1, arbitrary: oddValue(realIds).map((value) => ({ kind: 'json-value', args: value })) },
    { weight: 2, arbitrary: fc.constantFrom(...RAW_BODIES).map((raw) => ({ kind: 'raw', args: raw })) },
  );
  return fc
    .record({
      route: fc.constantFrom(...routes),
      ids: fc.array(idValue(realIds), { minLength: 3, maxLength: 3 }),
      // Mostly under Node's URL limit, so that the query reaches the services; a few over it (431).
      query: fc.oneof({ weight: 19, arbitrary: oddArgs(realIds).filter((args) => formEncode(args).length < 8_000) }, { weight: 1, arbitrary: oddArgs(realIds) }),
      withQuery: fc.boolean(),
      body,
      requestId: fc.option(oddString, { freq: 4 }),
    })
    .map(({ route, ids, query, withQuery, body: generated, requestId }) => {
      const headers: Record<string, string> = { authorization: `Bearer ${token}` };
      let path = fill(route.path, ids);
      if (withQuery || route.method === 'GET') path += `?${formEncode(query)}`;
      // Header values must be Latin-1 without CR/LF to be sent at all; the fuzzer tests what arrives.
      if (requestId !== null && /^[\x20-\x7e]*$/.test(requestId)) headers['x-request-id'] = requestId;
      let payload: Buffer | undefined;
      let shown: string;
      if (generated.kind === 'raw') {
        const raw = generated.args as (typeof RAW_BODIES)[number];
        Object.assign(headers, raw.headers);
        payload = raw.body();
        shown = raw.name;
      } else if (generated.kind === 'form') {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        shown = formEncode(generated.args as Record<string, unknown>);
        payload = Buffer.from(shown);
      } else {
        headers['content-type'] = 'application/json';
        shown = JSON.stringify(generated.args) ?? 'null';
        payload = Buffer.from(shown);
      }
      if (route.method === 'GET') payload = undefined;
      const owner: FuzzOwner = route.subject.name.startsWith('auth.') ? 'auth-oauth' : (payload && generated.kind === 'raw' && !(generated.args as (typeof RAW_BODIES)[number]).domain) || undecodablePath(path) ? 'gateway-edge' : 'domain';
      return {
        method: route.method,
        path,
        headers,
        body: payload,
        describe: `${route.method} ${abbreviate(path)} ${payload ? abbreviate(shown) : ''}`.trim(),
        target: `${route.method} ${route.path}`,
        owner,
      };
    });
}

/** A Sync API request of 1-4 commands of any type (and one unknown), with odd args, uuids and temp ids. */
export function syncRequest(commandTypes: readonly string[], realIds: readonly string[], token: string, sensible: Record<string, unknown>): fc.Arbitrary<FuzzRequest> {
  const command = fc.record({
    type: fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...commandTypes) }, { weight: 1, arbitrary: oddString }),
    uuid: fc.oneof({ weight: 8, arbitrary: fc.uuid() }, { weight: 1, arbitrary: oddValue(realIds) }),
    temp_id: fc.option(fc.oneof(fc.uuid(), oddString), { freq: 3 }),
    args: fc.oneof({ weight: 8, arbitrary: oddArgs(realIds, sensible) }, { weight: 1, arbitrary: oddValue(realIds) }),
  });
  return fc
    .record({
      path: fc.constantFrom('/sync/v9/sync', '/api/v1/sync', '/sync/v8/sync'),
      commands: fc.array(command, { minLength: 1, maxLength: 4 }),
      form: fc.boolean(),
      extra: fc.option(fc.record({ sync_token: oddValue(realIds), resource_types: oddValue(realIds) }, { requiredKeys: [] }), { freq: 4 }),
    })
    .map(({ path, commands, form, extra }) => {
      const wire = commands.map(({ temp_id, ...rest }) => (temp_id === null ? rest : { ...rest, temp_id }));
      const fields: Record<string, unknown> = { commands: wire, ...(extra ?? {}) };
      const headers: Record<string, string> = { authorization: `Bearer ${token}` };
      let text: string;
      if (form) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        text = formEncode(fields);
      } else {
        headers['content-type'] = 'application/json';
        text = JSON.stringify(fields);
      }
      return {
        method: 'POST',
        path,
        headers,
        body: Buffer.from(text),
        describe: `POST ${path} ${abbreviate(JSON.stringify(wire))}${extra ? ` ${abbreviate(JSON.stringify(extra))}` : ''}`,
        target: `command ${commands.map((command) => command.type).join('+')}`,
        owner: 'domain',
      };
    });
}
