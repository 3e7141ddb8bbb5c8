import { inSpan } from '@doable/shared-logging';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type AnyObjectSchema, objectFromShape } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { DomainCalls } from '../calls/domain-calls';
import { isAuthFailure, ToolFailure } from '../calls/tool-failure';
import type { ToolDefinition } from '../tools';
import { WithContent } from '../tools/tool-definition';

/** What the SDK is given for a tool, the same for every request: only the handler is the caller's. */
interface ToolRegistration {
  readonly tool: ToolDefinition;
  readonly config: { readonly title: string; readonly description: string; readonly inputSchema: AnyObjectSchema; readonly outputSchema: AnyObjectSchema; readonly annotations: ToolAnnotations };
}

const registrations = new WeakMap<readonly ToolDefinition[], readonly ToolRegistration[]>();

/**
 * The tools' registrations, made once per list (issue #48, S11). Given a tool's raw zod shapes,
 * the SDK wraps each in a new object schema on every registration, and the server is made anew
 * for every request (stateless), so every call paid for ~90 schema objects and their first,
 * uncached parse. These are the objects the SDK itself would make (its own `objectFromShape`),
 * so tools/list renders the same JSON Schemas and calls are checked by the same rules; zod
 * schemas are immutable, so concurrent requests share them safely.
 */
function registrationsOf(tools: readonly ToolDefinition[]): readonly ToolRegistration[] {
  let made = registrations.get(tools);
  if (!made) {
    made = tools.map((tool) => ({
      tool,
      config: {
        title: tool.title,
        description: tool.description,
        inputSchema: objectFromShape(tool.input),
        outputSchema: objectFromShape(tool.output),
        annotations: Object.freeze({ title: tool.title, readOnlyHint: tool.readOnly === true, destructiveHint: tool.destructive === true, openWorldHint: false }),
      },
    }));
    registrations.set(tools, made);
  }
  return made;
}

/**
 * Puts the tools on a server, bound to one caller. A tool's answer is its structured output and
 * the same as JSON text (for clients that read only text), then any blocks it adds (an image);
 * a refusal is a tool error carrying the Todoist error tag. A refused token is reported to
 * `onAuthFailure` (HTTP 401, not a tool error).
 *
 * `only`: the server answers one call of this tool and nothing else (the request is that one
 * message), so it is the only one put on it; the SDK looks a called tool up by name, so a name
 * that is not a tool is answered "not found" as before. Undefined: every tool (a list, a batch).
 */
export function registerTools(server: McpServer, tools: readonly ToolDefinition[], calls: DomainCalls, onAuthFailure: () => void, only?: string): void {
  for (const { tool, config } of registrationsOf(tools)) {
    if (only !== undefined && tool.name !== only) continue;
    // A span per call (issue #34): the tool's name, whether it refused; its requests to other services are children.
    const handler = (args: unknown): Promise<CallToolResult> =>
      inSpan(`mcp tool ${tool.name}`, { attributes: { 'gen_ai.tool.name': tool.name, 'gen_ai.operation.name': 'execute_tool' } }, async (span) => {
        try {
          const answer = await tool.run(calls, args as never);
          const [output, extra] = answer instanceof WithContent ? [answer.output as Record<string, unknown>, answer.content] : [answer as Record<string, unknown>, []];
          return { structuredContent: output, content: [{ type: 'text', text: JSON.stringify(output) }, ...extra] };
        } catch (err) {
          if (isAuthFailure(err)) onAuthFailure();
          if (!(err instanceof ToolFailure)) throw err;
          span.setAttribute('doable.error_tag', err.tag);
          return toolError(`${err.tag}: ${err.message}`, { error_tag: err.tag, ...err.extra });
        }
      });
    server.registerTool(tool.name, config, handler);
  }
}

/** The tool a request calls when it is one `tools/call` message (what `registerTools` may limit itself to), else undefined. */
export function calledTool(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const message = body as { method?: unknown; params?: { name?: unknown } };
  return message.method === 'tools/call' && typeof message.params?.name === 'string' ? message.params.name : undefined;
}

function toolError(text: string, meta: Record<string, unknown>): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }], _meta: meta };
}
