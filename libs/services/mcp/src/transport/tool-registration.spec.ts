import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { DomainCalls } from '../calls/domain-calls';
import { ALL_TOOLS } from '../tools';
import { calledTool, registerTools } from './tool-registration';

/** One JSON-RPC message through a fresh stateless server, as McpEndpoint runs it; the answer's text. */
async function answer(register: (server: McpServer) => void, message: object): Promise<string> {
  const server = new McpServer({ name: 'doable', version: '1.0.0' }, { capabilities: { tools: {} } });
  register(server);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    const request = new Request('http://localhost/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' } });
    return await (await transport.handleRequest(request, { parsedBody: message })).text();
  } finally {
    await server.close();
  }
}

/** The tools as they were registered before issue #48: the raw shapes, handed to the SDK on every request. */
function registerRawShapes(server: McpServer): void {
  for (const tool of ALL_TOOLS) {
    const annotations = { title: tool.title, readOnlyHint: tool.readOnly === true, destructiveHint: tool.destructive === true, openWorldHint: false };
    server.registerTool(tool.name, { title: tool.title, description: tool.description, inputSchema: tool.input, outputSchema: tool.output, annotations }, () => ({ content: [] }));
  }
}

const noCalls = {} as DomainCalls;
const LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list' };

describe('registerTools: the schemas made once per process', () => {
  it('lists every tool with the very JSON the SDK renders from the raw shapes, on every server', async () => {
    const expected = await answer(registerRawShapes, LIST);
    expect(JSON.parse(expected).result.tools).toHaveLength(ALL_TOOLS.length);
    expect(await answer((server) => registerTools(server, ALL_TOOLS, noCalls, () => undefined), LIST)).toBe(expected);
    expect(await answer((server) => registerTools(server, ALL_TOOLS, noCalls, () => undefined), LIST)).toBe(expected);
  });

  it('refuses a call\'s arguments with the SDK\'s own message when only the called tool is on the server', async () => {
    const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'find-tasks', arguments: { limit: 'x' } } };
    const expected = await answer(registerRawShapes, call);
    expect(JSON.parse(expected).result).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('Input validation error') }] });
    expect(await answer((server) => registerTools(server, ALL_TOOLS, noCalls, () => undefined, calledTool(call)), call)).toBe(expected);
  });

  it('answers a name that is no tool "not found", as with every tool on the server', async () => {
    const call = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'no-such-tool', arguments: {} } };
    const expected = await answer(registerRawShapes, call);
    expect(JSON.parse(expected).result.content[0].text).toContain('Tool no-such-tool not found');
    expect(await answer((server) => registerTools(server, ALL_TOOLS, noCalls, () => undefined, calledTool(call)), call)).toBe(expected);
  });
});

describe('calledTool', () => {
  it('names the tool of one tools/call message, and nothing for anything else', () => {
    expect(calledTool({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'find-tasks' } })).toBe('find-tasks');
    expect(calledTool({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).toBeUndefined();
    expect(calledTool({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 42 } })).toBeUndefined();
    expect(calledTool([{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'find-tasks' } }])).toBeUndefined();
    expect(calledTool(null)).toBeUndefined();
  });
});
