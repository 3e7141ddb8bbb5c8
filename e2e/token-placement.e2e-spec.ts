import { http } from '@doable/shared-testing';
import { HttpBrowser, logIn } from './support/oauth-flow';
import { type Account, MODES } from './support/system-view';
import { useSystem } from './support/use-system';

/**
 * Where a client may put its token (sync-interface §5.1, rest-interface): the Authorization
 * header everywhere, and a `token` form field on v8-and-older routes only. Never the query
 * string, never an `access_token` field: a URL is written to access logs and browser history.
 */
describe.each(MODES)('where the token may be placed (%s)', (mode) => {
  const { system, account } = useSystem(mode);

  it('refuses a token in the query string, on REST and Sync routes', async () => {
    for (const [method, path] of [
      ['GET', '/rest/v2/projects'],
      ['GET', '/api/v1/projects'],
      ['POST', '/api/v1/sync'],
      ['POST', '/sync/v8/sync'],
    ] as const) {
      const answer = await http(system.url, method, `${path}?access_token=${account.token}`, method === 'POST' ? { form: { sync_token: '*', resource_types: '["projects"]' } } : {});
      expect({ path, status: answer.status, tag: (answer.body as { error_tag?: string }).error_tag }).toEqual({ path, status: 401, tag: 'AUTH_INVALID_TOKEN' });
    }
  });

  it('refuses an access_token form field, and a token form field past v8', async () => {
    for (const field of ['access_token', 'token']) {
      for (const path of ['/api/v1/sync', '/sync/v9/sync']) {
        const answer = await http(system.url, 'POST', path, { form: { [field]: account.token, sync_token: '*', resource_types: '["projects"]' } });
        expect({ field, path, status: answer.status }).toEqual({ field, path, status: 401 });
      }
    }
    expect((await http(system.url, 'POST', '/sync/v9/quick/add', { form: { token: account.token, text: 'Not on v9' } })).status).toBe(401);
  });

  it('takes the token form field on a v8 route, as v8 documented it', async () => {
    const answer = await http(system.url, 'POST', '/sync/v8/quick/add', { form: { token: account.token, text: 'Added the v8 way' } });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ content: 'Added the v8 way' });
  });

  it('takes the token form field on /sync/v8/sync, and answers in v8 shapes', async () => {
    const answer = await http(system.url, 'POST', '/sync/v8/sync', { form: { token: account.token, sync_token: '*', resource_types: '["projects"]' } });
    expect(answer.status).toBe(200);
    expect(answer.body.projects).toEqual([expect.objectContaining({ name: 'Inbox', id: expect.any(Number), inbox_project: true })]);
  });

  it('takes the Authorization header everywhere', async () => {
    expect((await http(system.url, 'GET', '/rest/v2/projects', { token: account.token })).status).toBe(200);
    expect((await http(system.url, 'POST', '/sync/v8/quick/add', { token: account.token, form: { text: 'Header on v8' } })).status).toBe(200);
    expect((await http(system.url, 'POST', '/sync/v8/sync', { token: account.token, form: { sync_token: '*', resource_types: '["user"]' } })).status).toBe(200);
  });
});

/** `next` after log-in goes only to a path on this site, as a browser would read the Location header. */
describe.each(MODES)('log-in redirect (%s)', (mode) => {
  const { system } = useSystem(mode, { accounts: 0 });
  let account: Account;
  const password = 'a sturdy passphrase';

  beforeAll(async () => {
    account = await system.createAccount({ password });
  });

  it.each(['/\t/evil.example', '/\\evil.example', ' //evil.example', '/%09/evil.example/../'])('sends next=%j home, never to another host', async (next) => {
    const browser = new HttpBrowser(system.url);
    const form = await browser.get(`/auth/login?next=${encodeURIComponent(next)}`);
    const done = await browser.submit('/auth/login', form, { email: account.email, password, next });
    expect(done.status).toBe(303);
    expect(new URL(done.location!, system.url).origin).toBe(new URL(system.url).origin);
    const again = await browser.get(`/auth/login?next=${encodeURIComponent(next)}`);
    expect(again.status).toBe(303);
    expect(new URL(again.location!, system.url).origin).toBe(new URL(system.url).origin);
  });

  it('answers a next holding CR, LF or non-Latin-1 text with a redirect, not a 500', async () => {
    const browser = new HttpBrowser(system.url);
    await logIn(browser, account.email, password);
    for (const next of ['/auth/apps\r\nSet-Cookie: evil=1', '/auth/☃']) {
      const answer = await browser.get(`/auth/login?next=${encodeURIComponent(next)}`);
      expect(answer.status).toBe(303);
      expect(answer.headers.get('set-cookie') ?? '').not.toContain('evil');
    }
  });
});
