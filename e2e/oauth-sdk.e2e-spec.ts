import { http, waitFor } from '@doable/shared-testing';
import { runClient } from './support/clients';
import { authorize, CALLBACK_URL, HttpBrowser, registerApp, signUp } from './support/oauth-flow';
import { MODES } from './support/system-view';
import { useSystem } from './support/use-system';

/** The official SDK's OAuth helpers (getAuthToken, revokeToken, migratePersonalToken) against the server. */
describe.each(MODES)('@doist/todoist-sdk OAuth helpers (%s)', (mode) => {
  const { system } = useSystem(mode, { accounts: 0 });

  it('exchanges a code, uses the token, revokes it (RFC 7009, HTTP Basic) and migrates a personal token', async () => {
    const browser = new HttpBrowser(system.url);
    const signedUp = await signUp(browser, { email: `sdk-${mode}@example.test`, fullName: 'SDK User', password: 'another sturdy passphrase' });
    expect(signedUp.status).toBe(201);
    const personalToken = /data-testid="api-token">([0-9a-f]{40})</.exec(signedUp.text)![1];
    const app = await registerApp(browser, 'SDK app', [CALLBACK_URL]);
    const landed = await authorize(browser, { clientId: app.clientId, scopes: ['data:read_write'] });
    const code = landed.searchParams.get('code')!;

    const report = await runClient('oauth-todoist-sdk.mjs', { DOABLE_URL: system.url, CLIENT_ID: app.clientId, CLIENT_SECRET: app.clientSecret, CODE: code, PERSONAL_TOKEN: personalToken });

    expect(report.exchanged).toEqual({ tokenType: 'Bearer', accessToken: expect.stringMatching(/^[0-9a-f]{40}$/) });
    expect(report.projects).toEqual(['Inbox']);
    expect(report.replay).toEqual({ status: 400, data: { error: 'bad_authorization_code' } });
    expect(report.revoked).toBe(true);
    expect(report.wrongSecret).toEqual({ status: 401 });
    expect(report.migrated).toEqual({ accessToken: expect.stringMatching(/^[0-9a-f]{40}$/), tokenType: 'Bearer', expiresIn: expect.any(Number) });

    const sync = (token: string) => http(system.url, 'POST', '/api/v1/sync', { token, json: { sync_token: '*', resource_types: ['projects'] } });
    await waitFor(async () => (await sync(report.exchanged.accessToken)).status === 401, 'the revoked token to be refused', 5_000);
    const migrated = await sync(report.migrated.accessToken);
    expect(migrated.status).toBe(200);
    const write = await http(system.url, 'POST', '/api/v1/sync', { token: report.migrated.accessToken, json: { commands: [{ type: 'project_add', uuid: `${mode}-m`, args: { name: 'x' } }] } });
    expect(write.body.sync_status[`${mode}-m`]).toMatchObject({ error_tag: 'FORBIDDEN' });
  });

  it('through the gateway: form-encoded exchange, v1 revoke, JSON errors to the browser, no CORS on /oauth, discovery', async () => {
    const browser = new HttpBrowser(system.url);
    await signUp(browser, { email: `http-${mode}@example.test`, fullName: 'HTTP User', password: 'yet another passphrase' });
    const app = await registerApp(browser, 'HTTP app', [CALLBACK_URL]);
    const code = (await authorize(browser, { clientId: app.clientId, scopes: ['data:read'], redirectUri: CALLBACK_URL })).searchParams.get('code')!;

    const exchanged = await http(system.url, 'POST', '/oauth/access_token', {
      form: { grant_type: 'authorization_code', client_id: app.clientId, client_secret: app.clientSecret, code, redirect_uri: CALLBACK_URL },
    });
    expect(exchanged.status).toBe(200);
    expect(exchanged.headers.get('access-control-allow-origin')).toBeNull();
    const token = exchanged.body.access_token as string;
    expect((await http(system.url, 'POST', '/api/v1/sync', { token, json: { sync_token: '*', resource_types: ['projects'] } })).status).toBe(200);

    const wrong = await http(system.url, 'POST', '/oauth/access_token', { form: { client_id: app.clientId, client_secret: 'nope', code } });
    expect(wrong).toMatchObject({ status: 400, body: { error: 'incorrect_application_credentials' } });

    const unknownClient = await browser.get('/oauth/authorize?client_id=nope&scope=data:read&state=s');
    expect(unknownClient.status).toBe(400);
    expect(unknownClient.headers.get('content-type')).toMatch(/^application\/json/);
    expect(JSON.parse(unknownClient.text)).toMatchObject({ error: 'invalid_client' });

    const revoked = await http(system.url, 'POST', '/api/v1/access_tokens/revoke', { json: { client_id: app.clientId, client_secret: app.clientSecret, access_token: token } });
    expect(revoked.status).toBe(204);
    await waitFor(async () => (await http(system.url, 'POST', '/api/v1/sync', { token, json: { sync_token: '*', resource_types: ['projects'] } })).status === 401, 'the revoked token to be refused', 5_000);

    const metadata = await http(system.url, 'GET', '/.well-known/oauth-authorization-server');
    expect(metadata.body).toMatchObject({ issuer: system.url, token_endpoint: `${system.url}/oauth/access_token`, code_challenge_methods_supported: ['S256'] });
  });

  it('@doist/todoist-api-typescript 1.7.0: getAuthToken, then revokeAuthToken (POST /sync/v8/access_tokens/revoke) stops the token', async () => {
    const browser = new HttpBrowser(system.url);
    await signUp(browser, { email: `v1-${mode}@example.test`, fullName: 'REST v1 User', password: 'a v1 era passphrase' });
    const app = await registerApp(browser, 'REST v1 app', [CALLBACK_URL]);
    const code = (await authorize(browser, { clientId: app.clientId, scopes: ['data:read'] })).searchParams.get('code')!;

    const report = await runClient('oauth-rest-v1.mjs', { DOABLE_URL: system.url, CLIENT_ID: app.clientId, CLIENT_SECRET: app.clientSecret, CODE: code });

    expect(report.exchanged).toEqual({ tokenType: 'Bearer', accessToken: expect.stringMatching(/^[0-9a-f]{40}$/) });
    expect(report.projects).toEqual(['Inbox']);
    expect(report.wrongSecret).toEqual({ status: 400, data: { error: 'incorrect_application_credentials' } });
    expect(report.revoked).toBe(true);
    const projects = () => http(system.url, 'GET', '/rest/v1/projects', { token: report.exchanged.accessToken });
    await waitFor(async () => (await projects()).status === 401, 'the revoked token to be refused', 5_000);
  });
});
