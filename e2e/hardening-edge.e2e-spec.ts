import { gzipSync } from 'node:zlib';
import { MODES } from './support/system-view';
import { useSystem } from './support/use-system';

interface Answer {
  readonly status: number;
  readonly body: { error_tag?: string; http_code?: number } | null;
}

/** Sends bytes exactly as given (fetch would re-encode a string body). */
async function send(url: string, path: string, body: Buffer | string, headers: Record<string, string>, token?: string): Promise<Answer> {
  const response = await fetch(new URL(path, url), {
    method: 'POST',
    headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: typeof body === 'string' ? Buffer.from(body) : body,
  });
  const text = await response.text();
  let parsed: Answer['body'] = null;
  try {
    parsed = JSON.parse(text) as Answer['body'];
  } catch {
    // An answer that is not JSON fails the assertions below.
  }
  return { status: response.status, body: parsed };
}

const JSON_TYPE = { 'content-type': 'application/json' };
const FORM_TYPE = { 'content-type': 'application/x-www-form-urlencoded' };
const deepArray = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/**
 * The classes of hostile bodies a fuzzer (or a prankster) sends: each is the client's fault,
 * so each answers a coded 4xx, on bearer routes and on the auth-oauth routes alike; none may
 * look like an outage (5xx) or reach a service.
 */
const HOSTILE_BODIES: ReadonlyArray<[string, Buffer | string, Record<string, string>, number, string]> = [
  ['JSON nested 5,000 deep', deepArray(5_000), JSON_TYPE, 400, 'BODY_TOO_DEEP'],
  ['JSON objects nested 5,000 deep', `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`, JSON_TYPE, 400, 'BODY_TOO_DEEP'],
  ['deep JSON inside commands (JSON body)', `{"commands":${deepArray(5_000)}}`, JSON_TYPE, 400, 'BODY_TOO_DEEP'],
  ['deep JSON inside commands (form field)', `commands=${encodeURIComponent(deepArray(5_000))}`, FORM_TYPE, 400, 'BODY_TOO_DEEP'],
  ['truncated JSON', '{"commands": [', JSON_TYPE, 400, 'INVALID_JSON'],
  ['invalid UTF-8 in JSON', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), JSON_TYPE, 400, 'INVALID_UTF8'],
  ['invalid UTF-8 in a form', 'sync_token=%FF%FE&resource_types=all', FORM_TYPE, 400, 'INVALID_UTF8'],
  ['10,001 form parameters', Array.from({ length: 10_001 }, (_, i) => `p${i}=1`).join('&'), FORM_TYPE, 413, 'TOO_MANY_PARAMETERS'],
  ['garbage gzip', 'definitely not gzip', { ...JSON_TYPE, 'content-encoding': 'gzip' }, 400, 'INVALID_CONTENT_ENCODING'],
  ['garbage deflate', 'definitely not deflate', { ...FORM_TYPE, 'content-encoding': 'deflate' }, 400, 'INVALID_CONTENT_ENCODING'],
  ['gzip of deep JSON', gzipSync(deepArray(5_000)), { ...JSON_TYPE, 'content-encoding': 'gzip' }, 400, 'BODY_TOO_DEEP'],
  ['an unknown content-encoding', '{}', { ...JSON_TYPE, 'content-encoding': 'x-bogus' }, 415, 'UNSUPPORTED_MEDIA_TYPE'],
  ['an unknown charset', '{}', { 'content-type': 'application/json; charset=x-klingon' }, 415, 'UNSUPPORTED_MEDIA_TYPE'],
  ['a latin1 form', 'a=1', { 'content-type': 'application/x-www-form-urlencoded; charset=latin1' }, 415, 'UNSUPPORTED_MEDIA_TYPE'],
  ['multipart without a boundary', 'x', { 'content-type': 'multipart/form-data' }, 415, 'UNSUPPORTED_MEDIA_TYPE'],
  ['text/plain', 'hello', { 'content-type': 'text/plain' }, 415, 'UNSUPPORTED_MEDIA_TYPE'],
  ['JSON string', '"text"', JSON_TYPE, 400, 'BODY_NOT_OBJECT'],
  ['JSON array', '[1,2]', JSON_TYPE, 400, 'BODY_NOT_OBJECT'],
  ['a __proto__ key', '{"__proto__":{"admin":true},"sync_token":"*"}', JSON_TYPE, 400, 'BAD_REQUEST'],
];

const ROUTES = ['/api/v1/sync', '/sync/v9/sync', '/sync/v8/sync', '/rest/v2/tasks', '/api/v1/tasks', '/oauth/access_token', '/auth/login', '/api/v1/revoke'];

describe.each(MODES)('hostile request bodies at the edge (%s)', (mode) => {
  const { system, account } = useSystem(mode);

  it.each(HOSTILE_BODIES)('answers %s with a coded client error on every kind of route', async (_name, body, headers, status, tag) => {
    for (const path of ROUTES) {
      const answer = await send(system.url, path, body, headers, account.token);
      expect({ path, status: answer.status, tag: answer.body?.error_tag }).toEqual({ path, status, tag });
    }
  });

  it('answers a path segment that does not decode (%ff%00) with a coded 400', async () => {
    for (const path of ['/rest/v2/comments/%ff%00', '/api/v1/labels/%ff', '/rest/v1/projects/%E0%A4%A']) {
      const answer = await fetch(new URL(path, system.url), { method: 'DELETE', headers: { authorization: `Bearer ${account.token}` } });
      expect({ path, status: answer.status, tag: ((await answer.json()) as { error_tag?: string }).error_tag }).toEqual({ path, status: 400, tag: 'INVALID_ARGUMENT_VALUE' });
    }
  });

  it('holds JSON text in the query string to the same depth', async () => {
    const deep = await fetch(new URL(`/api/v1/tasks?ids=${encodeURIComponent(deepArray(5_000))}`, system.url), { headers: { authorization: `Bearer ${account.token}` } });
    expect(deep.status).toBe(400);
    expect(((await deep.json()) as { error_tag: string }).error_tag).toBe('BODY_TOO_DEEP');
  });

  it('still serves a JSON null body and ordinary gzip bodies', async () => {
    expect((await send(system.url, '/api/v1/sync', 'null', JSON_TYPE, account.token)).status).toBeLessThan(500);
    const zipped = gzipSync(JSON.stringify({ sync_token: '*', resource_types: ['projects'] }));
    expect((await send(system.url, '/api/v1/sync', zipped, { ...JSON_TYPE, 'content-encoding': 'gzip' }, account.token)).status).toBe(200);
  });
});
