// Drives the official MCP TypeScript SDK's client (@modelcontextprotocol/sdk) as an assistant
// would, one step per line: the spec writes a JSON request on stdin and reads one JSON answer
// on stdout. Steps: connect (a raw token, or OAuth through the SDK's own flow: discovery,
// dynamic registration, PKCE), finishAuth (the code the consent page gave), list, call, close.
// During OAuth the client asks the spec to open the authorization URL: an `authorize` event line.
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const out = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);

/** What the SDK keeps between the steps of its OAuth flow; a real assistant would persist it. */
class MemoryOAuthProvider {
  constructor(redirectUrl, scope) {
    this._redirectUrl = redirectUrl;
    this._scope = scope;
    this._client = undefined;
    this._tokens = undefined;
    this._verifier = undefined;
  }
  get redirectUrl() {
    return this._redirectUrl;
  }
  get clientMetadata() {
    return { client_name: 'MCP e2e assistant', redirect_uris: [this._redirectUrl], grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'none', ...(this._scope ? { scope: this._scope } : {}) };
  }
  clientInformation() {
    return this._client;
  }
  saveClientInformation(info) {
    this._client = info;
  }
  tokens() {
    return this._tokens;
  }
  saveTokens(tokens) {
    this._tokens = tokens;
  }
  state() {
    return randomBytes(8).toString('hex');
  }
  redirectToAuthorization(url) {
    out({ event: 'authorize', url: url.toString() });
  }
  saveCodeVerifier(verifier) {
    this._verifier = verifier;
  }
  codeVerifier() {
    return this._verifier;
  }
}

let client;
let transport;
let provider;
/** Where requests really go: a load balancer that sends the same session to another replica (retarget). */
let target;

function viaTarget(input, init) {
  if (!target) return fetch(input, init);
  const url = new URL(input instanceof Request ? input.url : input);
  return fetch(new URL(`${url.pathname}${url.search}`, target), init);
}

function makeTransport(request) {
  const url = new URL(request.url);
  target = undefined;
  if (request.token) return new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${request.token}` } }, fetch: viaTarget });
  provider ??= new MemoryOAuthProvider(request.redirectUrl, request.scope);
  return new StreamableHTTPClientTransport(url, { authProvider: provider, fetch: viaTarget });
}

async function connect(request) {
  await client?.close().catch(() => undefined);
  client = new Client({ name: 'doable-e2e', version: '1.0.0' });
  transport = makeTransport(request);
  await client.connect(transport);
  return { connected: true, server: client.getServerVersion(), sessionId: transport.sessionId ?? null };
}

const steps = {
  connect,
  async finishAuth(request) {
    await transport.finishAuth(request.code);
    return { tokens: Boolean(provider.tokens()?.access_token), clientId: provider.clientInformation()?.client_id ?? null, accessToken: provider.tokens()?.access_token };
  },
  /** The same client and session, its next requests sent to another gateway replica. */
  retarget(request) {
    target = request.url;
    return { target };
  },
  async list() {
    const { tools } = await client.listTools();
    return { tools };
  },
  async call(request) {
    return await client.callTool({ name: request.name, arguments: request.arguments ?? {} });
  },
  async close() {
    await client?.close();
    return { closed: true };
  },
};

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === '') continue;
  const request = JSON.parse(line);
  try {
    out({ ok: await steps[request.op](request) });
  } catch (error) {
    out({ error: { name: error?.constructor?.name ?? 'Error', message: String(error?.message ?? error), code: error?.code ?? null } });
  }
}
