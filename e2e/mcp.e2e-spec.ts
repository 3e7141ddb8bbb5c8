import { http } from '@doable/shared-testing';
import type { Browser } from 'playwright-core';
import { type CallbackServer, launchChromium, startCallbackServer } from './support/browser';
import { startExtraGateway } from './support/extra-gateway';
import { McpDriver } from './support/mcp-driver';
import { syncSession } from './support/sync-session';
import { MODES } from './support/system-under-test';
import { useSystem } from './support/use-system';

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
const MCP_ACCEPT = { accept: 'application/json, text/event-stream' };

describe.each(MODES)('assistant server /mcp (%s)', (mode) => {
  const { system, account } = useSystem(mode);
  const { sync } = syncSession(() => system, () => account, 'mcp');
  const items = async () => (await sync({ sync_token: '*', resource_types: ['items'] })).items as any[];

  describe('the transport', () => {
    it('answers a request without a token with 401 and the protected resource it guards', async () => {
      const response = await http(system.url, 'POST', '/mcp', { json: INITIALIZE, headers: MCP_ACCEPT });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${system.url}/.well-known/oauth-protected-resource/mcp"`);
    });

    it('says the token is invalid when one was sent', async () => {
      const response = await http(system.url, 'POST', '/mcp', { token: 'f'.repeat(40), json: INITIALIZE, headers: MCP_ACCEPT });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${system.url}/.well-known/oauth-protected-resource/mcp", error="invalid_token"`);
    });

    it('is stateless: GET and DELETE are 405 with Allow: POST, and no session id is issued', async () => {
      for (const method of ['GET', 'DELETE']) {
        const response = await http(system.url, method, '/mcp', { token: account.token });
        expect(response.status).toBe(405);
        expect(response.headers.get('allow')).toBe('POST');
      }
      const response = await http(system.url, 'POST', '/mcp', { token: account.token, json: INITIALIZE, headers: MCP_ACCEPT });
      expect(response.status).toBe(200);
      expect(response.headers.get('mcp-session-id')).toBeNull();
      expect(response.body).toMatchObject({ jsonrpc: '2.0', id: 1, result: { serverInfo: { name: 'doable' }, capabilities: { tools: {} } } });
    });

    it('refuses a browser page of another origin (DNS rebinding) with a coded 403', async () => {
      const response = await http(system.url, 'POST', '/mcp', { token: account.token, json: INITIALIZE, headers: { ...MCP_ACCEPT, origin: 'https://evil.example.net' } });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: 'Forbidden: Origin https://evil.example.net is not allowed' }, id: null });
      const sameOrigin = await http(system.url, 'POST', '/mcp', { token: account.token, json: INITIALIZE, headers: { ...MCP_ACCEPT, origin: system.url } });
      expect(sameOrigin.status).toBe(200);
    });
  });

  describe('the official SDK client with a personal token', () => {
    let client: McpDriver;
    beforeAll(async () => {
      client = new McpDriver();
      await client.ok({ op: 'connect', url: `${system.url}/mcp`, token: account.token });
    });
    afterAll(() => client.stop());

    it('lists the tools, each with an input and an output schema', async () => {
      const { tools } = await client.ok({ op: 'list' });
      const names = tools.map((tool: any) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['add-tasks', 'complete-tasks', 'find-tasks', 'find-projects', 'add-projects', 'user-info']));
      for (const tool of tools) {
        expect(tool.inputSchema.type).toBe('object');
        expect(tool.outputSchema.type).toBe('object');
      }
    });

    it('adds, finds and completes a task, seen through a sync', async () => {
      const { projects } = await client.tool('add-projects', { projects: [{ name: 'MCP project' }] });
      const { tasks } = await client.tool('add-tasks', { tasks: [{ content: 'Call the plumber', priority: 'p1', projectId: projects[0].id, labels: ['home'] }] });
      const task = (await items()).find((item) => item.id === tasks[0].id);
      expect(task).toMatchObject({ content: 'Call the plumber', priority: 4, project_id: projects[0].id, labels: ['home'], checked: false });

      const found = await client.tool('find-tasks', { searchText: 'plumber' });
      expect(found.tasks.map((item: any) => item.id)).toEqual([tasks[0].id]);

      const completed = await client.tool('complete-tasks', { ids: [tasks[0].id, '999999999'] });
      expect(completed.succeeded).toEqual([tasks[0].id]);
      expect(completed.failed).toEqual([{ id: '999999999', tag: 'ITEM_NOT_FOUND', error: expect.any(String) }]);
      expect((await items()).some((item) => item.id === tasks[0].id)).toBe(false);
    });

    it('answers who the token belongs to', async () => {
      expect(await client.tool('user-info')).toMatchObject({ id: account.userId, email: account.email });
    });

    it('reports a refused operation as a tool error with its tag', async () => {
      const result = await client.ok({ op: 'call', name: 'update-projects', arguments: { projects: [{ id: '123456789', name: 'x' }] } });
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toMatch(/^PROJECT_NOT_FOUND: /);
    });
  });

  describe('the official SDK client through OAuth (discovery, registration, PKCE, consent in Chromium)', () => {
    const password = 'correct horse battery staple 42';
    let browser: Browser;
    let callback: CallbackServer;
    let client: McpDriver;
    let owner: { userId: string; email: string; token: string };
    let clientId: string;
    let accessToken: string;
    let secondGateway: Awaited<ReturnType<typeof startExtraGateway>> | undefined;
    const ownerItems = async () => (await http(system.url, 'POST', '/api/v1/sync', { token: owner.token, json: { sync_token: '*', resource_types: ['items'] } })).body.items as any[];

    beforeAll(async () => {
      [browser, callback, owner] = await Promise.all([launchChromium(), startCallbackServer(), system.createAccount({ password })]);
      client = new McpDriver();
    });
    afterAll(async () => {
      client?.stop();
      await Promise.all([browser?.close(), callback?.close(), secondGateway?.close()]);
    });

    it('publishes where the resource is authorised, and how to register', async () => {
      const resource = await http(system.url, 'GET', '/.well-known/oauth-protected-resource/mcp');
      expect(resource.body).toEqual({
        resource: `${system.url}/mcp`,
        authorization_servers: [system.url],
        bearer_methods_supported: ['header'],
        scopes_supported: ['data:read_write', 'data:read', 'data:delete', 'task:add', 'project:delete'],
        resource_name: 'Doable',
      });
      expect((await http(system.url, 'GET', '/.well-known/oauth-protected-resource')).body).toEqual(resource.body);
      const server = await http(system.url, 'GET', '/.well-known/oauth-authorization-server');
      expect(server.body).toMatchObject({ registration_endpoint: `${system.url}/oauth/register`, code_challenge_methods_supported: ['S256'] });
      expect(server.body.token_endpoint_auth_methods_supported).toContain('none');
    });

    it('connects after the user allows it in the browser, and its tools act on the account', async () => {
      const asked = await client.send({ op: 'connect', url: `${system.url}/mcp`, redirectUrl: callback.url });
      expect(asked.event).toBe('authorize');
      const authorizeUrl = new URL(asked.url);
      expect(authorizeUrl.pathname).toBe('/oauth/authorize');
      expect(authorizeUrl.searchParams.get('code_challenge_method')).toBe('S256');
      expect(authorizeUrl.searchParams.get('resource')).toBe(`${system.url}/mcp`);
      clientId = authorizeUrl.searchParams.get('client_id')!;
      // The SDK stops there until the user has answered: the app would open a browser.
      expect((await client.next()).error).toMatchObject({ name: 'UnauthorizedError' });

      const page = await browser.newPage();
      await page.goto(authorizeUrl.toString());
      await page.waitForURL(/\/auth\/login\?next=/);
      await page.getByLabel('Email').fill(owner.email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.waitForURL(/\/oauth\/authorize\?/);
      await expect(page.locator('[data-testid="public-client"]').textContent()).resolves.toContain(new URL(callback.url).host);
      await page.getByRole('button', { name: 'Allow' }).click();
      await page.waitForURL((url) => url.toString().startsWith(callback.url));
      const code = new URL(page.url()).searchParams.get('code');
      await page.close();

      const finished = await client.ok({ op: 'finishAuth', code });
      expect(finished).toMatchObject({ tokens: true, clientId });
      accessToken = finished.accessToken;
      await client.ok({ op: 'connect', url: `${system.url}/mcp`, redirectUrl: callback.url });
      const { tasks } = await client.tool('add-tasks', { tasks: [{ content: 'Authorised through OAuth' }] });
      expect((await ownerItems()).find((item) => item.id === tasks[0].id)).toMatchObject({ content: 'Authorised through OAuth', user_id: owner.userId });
    });

    if (mode === 'cluster') {
      it('keeps its session when the next requests reach another gateway replica', async () => {
        secondGateway = await startExtraGateway(system);
        await client.ok({ op: 'retarget', url: secondGateway.url });
        const { tasks } = await client.tool('add-tasks', { tasks: [{ content: 'Answered by the second replica' }] });
        expect(await client.tool('find-tasks', { searchText: 'second replica' })).toMatchObject({ tasks: [{ id: tasks[0].id }] });
        await client.ok({ op: 'retarget', url: system.url });
        expect((await client.tool('user-info')).id).toBe(owner.userId);
      });
    }

    it('answers a revoked token with 401 and the challenge, so the client authorises again', async () => {
      const revoked = await http(system.url, 'POST', '/api/v1/revoke', { form: { client_id: clientId, token: accessToken } });
      expect(revoked.status).toBe(200);
      const refused = await http(system.url, 'POST', '/mcp', { token: accessToken, json: INITIALIZE, headers: MCP_ACCEPT });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
      // The SDK meets the 401, goes back to the authorization page, and reports it unauthorised.
      const answer = await client.send({ op: 'call', name: 'user-info', arguments: {} });
      expect(answer.event).toBe('authorize');
      expect((await client.next()).error).toMatchObject({ name: 'UnauthorizedError' });
    });
  });
});
