import { http } from '@doable/shared-testing';
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
});
