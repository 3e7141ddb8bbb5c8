import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { http } from '@doable/shared-testing';
import type { RunningService } from '@doable/shared-runtime';
import { runClient } from './support/clients';
import { startedTogether } from './support/started-together';
import { startExtraGateway } from './support/extra-gateway';
import { authorize, CALLBACK_URL, HttpBrowser, logIn, registerApp, signUp } from './support/oauth-flow';
import { entryOf } from './support/processes';
import { MODES, type SystemUnderTest } from './support/system-view';
import { startOwnSystem } from './support/use-system';

const ROUNDS = 5;

/**
 * A revoked token is refused by every gateway as soon as the revoke call has returned: no
 * waiting, no retry. The official SDKs' own sequence (exchange, call, revoke, call again),
 * repeated; in cluster mode with two gateway replicas, the call and the revoke going through
 * different ones.
 */
describe.each(MODES)('revocation takes effect before the revoke call returns (%s)', (mode) => {
  let system: SystemUnderTest;
  let second: RunningService | undefined;
  /** Where the API calls go (the replica that caches the token) and where the revoke goes. */
  let callUrl: string;
  let revokeUrl: string;
  const password = 'a barrier passphrase';
  const browser = () => new HttpBrowser(system.url);

  beforeAll(async () => {
    system = await startOwnSystem(mode);
    if (mode === 'cluster') second = await startExtraGateway(system);
    callUrl = second?.url ?? system.url;
    revokeUrl = system.url;
  });

  afterAll(async () => {
    await second?.close();
    await system?.close();
  });

  const SDKS = ['v1', 'v3', 'v5'];

  /** One SDK's rounds, with an owner and an application of its own; the first SDK's test starts the three at once. */
  const rounds = startedTogether(SDKS, async (sdk: string): Promise<unknown> => {
    const owner = browser();
    await signUp(owner, { email: `barrier-${sdk}-${mode}@example.test`, fullName: 'Barrier', password });
    const app = await registerApp(owner, `Barrier ${sdk}`, [CALLBACK_URL]);
    const codes: string[] = [];
    for (let round = 0; round < ROUNDS; round++) codes.push((await authorize(owner, { clientId: app.clientId, scopes: ['data:read'] })).searchParams.get('code')!);
    return runClient('oauth-revoke-then-call.mjs', {
      SDK: sdk,
      DOABLE_URL: callUrl,
      DOABLE_REVOKE_URL: revokeUrl,
      CLIENT_ID: app.clientId,
      CLIENT_SECRET: app.clientSecret,
      CODES: JSON.stringify(codes),
    });
  });

  it.each([
    ['v1', '1.7.0, revoking at /sync/v8/access_tokens/revoke'],
    ['v3', '3.0.3, revoking at /sync/v9/access_tokens/revoke'],
    ['v5', '5.9.0, revoking at /api/v1/access_tokens/revoke'],
  ])('@doist/todoist-api-typescript %s (%s): the call after the revoke is refused, every round', async (sdk) => {
    expect(await rounds(sdk)).toEqual(Array.from({ length: ROUNDS }, () => ({ before: true, revoked: true, after: 401 })));
  });

  it('RFC 7009 revoke, DELETE /api/v1/access_tokens and the settings page: each refuses the token on the next call', async () => {
    const owner = browser();
    await signUp(owner, { email: `barrier-paths-${mode}@example.test`, fullName: 'Barrier', password });
    const app = await registerApp(owner, 'Barrier paths', [CALLBACK_URL]);
    const basic = `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64')}`;
    const token = async () => {
      const code = (await authorize(owner, { clientId: app.clientId, scopes: ['data:read'] })).searchParams.get('code')!;
      const exchanged = await http(system.url, 'POST', '/oauth/access_token', { json: { client_id: app.clientId, client_secret: app.clientSecret, code } });
      const accessToken = exchanged.body.access_token as string;
      expect((await http(callUrl, 'GET', '/api/v1/projects', { token: accessToken })).status).toBe(200);
      return accessToken;
    };
    for (let round = 0; round < ROUNDS; round++) {
      const viaRfc7009 = await token();
      expect((await http(revokeUrl, 'POST', '/api/v1/revoke', { form: { token: viaRfc7009, token_type_hint: 'access_token' }, headers: { authorization: basic } })).status).toBe(200);
      expect((await http(callUrl, 'GET', '/api/v1/projects', { token: viaRfc7009 })).status).toBe(401);

      const viaDelete = await token();
      expect((await http(revokeUrl, 'DELETE', '/api/v1/access_tokens', { json: { client_id: app.clientId, client_secret: app.clientSecret, access_token: viaDelete } })).status).toBe(204);
      expect((await http(callUrl, 'GET', '/api/v1/projects', { token: viaDelete })).status).toBe(401);

      const viaPage = await token();
      const settings = await owner.get('/auth/settings');
      const appId = /name="app_id" value="([0-9]+)"/.exec(settings.text)![1];
      expect((await owner.submit('/auth/settings/apps/revoke', settings, { app_id: appId })).status).toBe(200);
      expect((await http(callUrl, 'GET', '/api/v1/projects', { token: viaPage })).status).toBe(401);
    }
  });

  it('a personal token reset on the settings page stops the old token at once', async () => {
    const account = await system.createAccount({ password });
    const owner = browser();
    await logIn(owner, account.email, password);
    let current = account.token;
    for (let round = 0; round < ROUNDS; round++) {
      expect((await http(callUrl, 'GET', '/api/v1/projects', { token: current })).status).toBe(200);
      const settings = await owner.get('/auth/settings');
      const reset = await owner.submit('/auth/settings/token', settings, {});
      expect(reset.status).toBe(200);
      const fresh = /data-testid="api-token">([0-9a-f]{40})</.exec(reset.text)![1];
      expect((await http(callUrl, 'GET', '/api/v1/projects', { token: current })).status).toBe(401);
      expect((await http(callUrl, 'GET', '/api/v1/projects', { token: fresh })).status).toBe(200);
      current = fresh;
    }
  });
});

/**
 * `cli reset-token` on a running cluster (DATABASE_URL and NATS_URL set): it returns once both
 * gateway replicas have dropped the old token. The CLI runs as its own process, as an operator
 * runs it, while this process serves the gateways.
 */
describe('cli reset-token against a running cluster with two gateways', () => {
  let system: SystemUnderTest;
  let second: RunningService;
  let transport: { readonly url: string; readonly subjectPrefix: string };

  beforeAll(async () => {
    system = await startOwnSystem('cluster');
    second = await startExtraGateway(system);
    transport = system.natsTransport!;
  });

  afterAll(async () => {
    await second?.close();
    await system?.close();
  });

  it('returns once no gateway accepts the old token', async () => {
    const account = await system.createAccount();
    let current = account.token;
    for (let round = 0; round < 3; round++) {
      for (const url of [system.url, second.url]) expect((await http(url, 'GET', '/api/v1/projects', { token: current })).status).toBe(200);
      const { stdout, stderr } = await promisify(execFile)(process.execPath, [entryOf('cli'), 'reset-token', '--email', account.email], {
        env: { PATH: process.env['PATH'], DATABASE_URL: system.databaseUrl, NATS_URL: transport.url, NATS_SUBJECT_PREFIX: transport.subjectPrefix, LOG_LEVEL: 'silent' },
      });
      expect(stderr).toBe('');
      const fresh = /API token: ([0-9a-f]{40})/.exec(stdout)![1];
      for (const url of [system.url, second.url]) expect((await http(url, 'GET', '/api/v1/projects', { token: current })).status).toBe(401);
      current = fresh;
    }
  });
});
