import type { EdgeReply, EdgeRequest } from '@doable/contracts-common';
import { MCP_PATH } from '@doable/contracts-mcp';
import { DomainError } from '@doable/shared-errors';
import { BLOB_STORE, type BlobStore } from '@doable/shared-storage';
import { ServiceClient, type WithPrincipal } from '@doable/shared-transport';
import { Inject, Injectable } from '@nestjs/common';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ErrorCode, InitializeRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { DomainCalls } from '../calls/domain-calls';
import { ALL_TOOLS } from '../tools';
import { checkHostOrigin, type HostOriginPolicy } from './host-origin-policy';
import { calledTool, registerTools } from './tool-registration';

export const HOST_ORIGIN_POLICY = Symbol('HOST_ORIGIN_POLICY');

/** JSON-RPC's "server error" range: what the SDK answers for transport-level refusals too. */
const JSONRPC_FORBIDDEN = -32000;

/**
 * The JSON Schema validator every server of this process shares (the SDK's default, made once).
 * Left to itself, each new server builds its own Ajv instance with every format and meta-schema:
 * a third of this service's CPU per call in S11 (issue #48), for a validator that checks only
 * elicitation answers, which these tools never ask for. It compiles and caches schemas, and
 * holds no state of a request.
 */
const JSON_SCHEMA_VALIDATOR = new AjvJsonSchemaValidator();

/**
 * The assistant server for one HTTP request. Stateless by design: no session id is issued, and
 * every POST gets a fresh McpServer and transport built from what the request carries (the
 * caller's principal), so any replica, before or after a restart, answers any request: the
 * "No transport found for sessionId" failure cannot happen. Replies are JSON, not SSE streams:
 * a tool call's answer is one message, and an EdgeReply is one body.
 */
@Injectable()
export class McpEndpoint {
  constructor(
    private readonly services: ServiceClient,
    @Inject(HOST_ORIGIN_POLICY) private readonly policy: HostOriginPolicy,
    @Inject(BLOB_STORE) private readonly store: BlobStore,
  ) {}

  async handle(request: WithPrincipal<EdgeRequest>): Promise<EdgeReply> {
    const verdict = checkHostOrigin(this.policy, request.origin, request.headers?.['origin']);
    if (!verdict.allowed) return jsonRpcError(403, JSONRPC_FORBIDDEN, `Forbidden: ${verdict.reason}`);
    if (request.method !== 'POST') return { status: 405, body: null, headers: { Allow: 'POST' } };

    const refusal = invalidParams(request.body);
    if (refusal) return refusal;

    const calls = new DomainCalls(this.services, request.principal, request.origin, this.store);
    let authFailed = false;
    const server = new McpServer({ name: 'doable', version: '1.0.0' }, { capabilities: { tools: {} }, jsonSchemaValidator: JSON_SCHEMA_VALIDATOR });
    registerTools(server, ALL_TOOLS, calls, () => (authFailed = true), calledTool(request.body));
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      const response = await transport.handleRequest(toWebRequest(request), { parsedBody: request.body });
      // A token refused on the way (revoked while the call ran): HTTP 401, so the client re-authorises.
      if (authFailed) throw new DomainError('AUTH_REQUIRED');
      return await toEdgeReply(response);
    } finally {
      await server.close();
    }
  }
}

/**
 * The requests this server answers, by method, with the SDK's own schemas. The SDK parses a
 * request's params only inside its handler, and a failed parse there reaches the client as
 * -32603 (internal error); a client's malformed params are -32602 (invalid params), so they are
 * checked here first.
 */
const REQUEST_SCHEMAS: Readonly<Record<string, { safeParse(value: unknown): { success: boolean; error?: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> } } }>> = {
  'tools/call': CallToolRequestSchema,
  'tools/list': ListToolsRequestSchema,
  initialize: InitializeRequestSchema,
};

/** A JSON-RPC request (one message, as this stateless server takes them) whose params its method's schema refuses: its -32602 answer. */
export function invalidParams(body: unknown): EdgeReply | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const message = body as { method?: unknown; id?: unknown };
  const schema = typeof message.method === 'string' ? REQUEST_SCHEMAS[message.method] : undefined;
  if (!schema || (typeof message.id !== 'string' && typeof message.id !== 'number')) return undefined;
  const parsed = schema.safeParse(body);
  if (parsed.success) return undefined;
  const issue = parsed.error?.issues[0];
  const where = issue ? `${issue.path.map(String).join('.') || 'request'}: ${issue.message}` : 'malformed request';
  return { status: 200, body: JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: ErrorCode.InvalidParams, message: `Invalid params: ${where}` } }), contentType: 'application/json' };
}

function toWebRequest(request: EdgeRequest): Request {
  const headers = new Headers({ 'content-type': 'application/json' });
  // The SDK insists a POST accepts both answers (JSON and an event stream); the client says so.
  headers.set('accept', request.headers?.['accept'] ?? 'application/json, text/event-stream');
  const version = request.headers?.['mcp-protocol-version'];
  if (version) headers.set('mcp-protocol-version', version);
  return new Request(`${request.origin ?? 'http://localhost'}${MCP_PATH}`, { method: 'POST', headers, body: JSON.stringify(request.body ?? null) });
}

/**
 * The SDK's answer as an edge reply. Its body stays the UTF-8 bytes the SDK wrote (a tool's answer
 * is tens of kilobytes): decoded to text here, it would only be encoded again to go over NATS,
 * where a long body travels as raw bytes and the gateway writes them as they came
 * (wire/body-bytes.ts).
 */
async function toEdgeReply(response: Response): Promise<EdgeReply> {
  const bytes = Buffer.from(await response.arrayBuffer());
  const headers: Record<string, string> = {};
  const allow = response.headers.get('allow');
  if (allow) headers['Allow'] = allow;
  if (bytes.length === 0) return { status: response.status, body: null, headers };
  return { status: response.status, body: bytes, contentType: response.headers.get('content-type') ?? 'application/json', headers };
}

function jsonRpcError(status: number, code: number, message: string): EdgeReply {
  return { status, body: JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), contentType: 'application/json' };
}
