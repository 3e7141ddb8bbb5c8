import { http, waitFor } from '@doable/shared-testing';
import { authorize, CALLBACK_URL, csrfOf, exchangeCode, HttpBrowser, registerApp, signUp } from './support/oauth-flow';
import { MODES, type SystemUnderTest } from './support/system-view';
import { useSystem } from './support/use-system';

const fullSync = (system: SystemUnderTest, token: string) => http(system.url, 'POST', '/api/v1/sync', { token, json: { sync_token: '*', resource_types: ['user'] } });

/** The settings page's "Authorized applications": what it lists, and its revoke button taking an app's access back on every gateway. */
describe.each(MODES)('authorized applications on the settings page (%s)', (mode) => {
  const { system } = useSystem(mode, { accounts: 0 });

  it('lists OAuth grants and migrated tokens, and revoking one app stops only its tokens at once', async () => {
    const browser = new HttpBrowser(system.url);
    const signedUp = await signUp(browser, { email: `grants-${mode}@example.test`, fullName: 'Grant Giver', password: 'a granting passphrase' });
    const personalToken = /data-testid="api-token">([0-9a-f]{40})</.exec(signedUp.text)![1];
    const reader = await registerApp(browser, 'Reader app', [CALLBACK_URL]);
    const migrator = await registerApp(browser, 'Migrator app', [CALLBACK_URL]);
    const code = (await authorize(browser, { clientId: reader.clientId, scopes: ['data:read'] })).searchParams.get('code')!;
    const readerToken = await exchangeCode(system.url, reader, code);
    const migrated = await http(system.url, 'POST', '/sync/v9/access_tokens/migrate_personal_token', {
      json: { client_id: migrator.clientId, client_secret: migrator.clientSecret, personal_token: personalToken, scope: 'data:read_write' },
    });
    const migratedToken = migrated.body.access_token as string;
    // Both now cached by the gateway (30 s): only the revocation event can explain a quick 401.
    for (const token of [readerToken, migratedToken, personalToken]) expect((await fullSync(system, token)).status).toBe(200);

    const settings = await browser.get('/auth/settings');
    expect(settings.status).toBe(200);
    const listed = [...settings.text.matchAll(/data-authorized-app-id="(\d+)"><h3 id="authorized-\d+">([^<]+)</g)].map((match) => ({ appId: match[1], name: match[2] }));
    expect(listed.map((app) => app.name)).toEqual(['Reader app', 'Migrator app']);
    expect(settings.text).toContain('Revoke access of Reader app');
    const readerId = listed[0].appId;

    const forged = await browser.request('POST', '/auth/settings/apps/revoke', { app_id: readerId, csrf: 'not-the-token' });
    expect(forged.status).toBe(403);
    expect((await fullSync(system, readerToken)).status).toBe(200);

    const revoked = await browser.request('POST', '/auth/settings/apps/revoke', { app_id: readerId, csrf: csrfOf(settings.text) });
    expect(revoked.status).toBe(200);
    expect(revoked.text).not.toContain('Reader app');
    expect(revoked.text).toContain('Migrator app');
    await waitFor(async () => (await fullSync(system, readerToken)).status === 401, 'the revoked app token to be refused', 10_000);
    expect((await fullSync(system, migratedToken)).status).toBe(200);
    expect((await fullSync(system, personalToken)).status).toBe(200);
  });
});

/** Expiring tokens: a migrated token lives OAUTH_MIGRATED_TOKEN_TTL_SECONDS, and the gateway's cache does not outlive it. */
describe.each(MODES)('token expiry (%s)', (mode) => {
  const { system } = useSystem(mode, { accounts: 0, env: { OAUTH_MIGRATED_TOKEN_TTL_SECONDS: '2' } });

  it('refuses an expired token with 401, although the gateway had it cached', async () => {
    const browser = new HttpBrowser(system.url);
    const signedUp = await signUp(browser, { email: `expiry-${mode}@example.test`, fullName: 'Expiry', password: 'an expiring passphrase' });
    const personalToken = /data-testid="api-token">([0-9a-f]{40})</.exec(signedUp.text)![1];
    const app = await registerApp(browser, 'Short-lived app', [CALLBACK_URL]);
    const migrated = await http(system.url, 'POST', '/api/v1/access_tokens/migrate_personal_token', {
      json: { client_id: app.clientId, client_secret: app.clientSecret, personal_token: personalToken, scope: 'data:read' },
    });
    expect(migrated.body).toMatchObject({ token_type: 'Bearer', expires_in: 2 });
    const token = migrated.body.access_token as string;
    expect((await fullSync(system, token)).status).toBe(200);
    await waitFor(async () => (await fullSync(system, token)).status === 401, 'the expired token to be refused', 10_000);
    const refused = await fullSync(system, token);
    expect(refused).toMatchObject({ status: 401, body: { error_tag: 'AUTH_INVALID_TOKEN' } });
    expect((await fullSync(system, personalToken)).status).toBe(200);
  });
});
