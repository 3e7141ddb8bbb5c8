import { inSpan } from '@doable/shared-logging';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { DomainCalls } from '../calls/domain-calls';
import { isAuthFailure, ToolFailure } from '../calls/tool-failure';
import type { ToolDefinition } from '../tools';
import { WithContent } from '../tools/tool-definition';

/**
 * Puts the tools on a server, bound to one caller. A tool's answer is its structured output and
 * the same as JSON text (for clients that read only text), then any blocks it adds (an image);
 * a refusal is a tool error carrying the Todoist error tag. A refused token is reported to
 * `onAuthFailure` (HTTP 401, not a tool error).
 */
export function registerTools(server: McpServer, tools: readonly ToolDefinition[], calls: DomainCalls, onAuthFailure: () => void): void {
  for (const tool of tools) {
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
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        outputSchema: tool.output,
        annotations: { title: tool.title, readOnlyHint: tool.readOnly === true, destructiveHint: tool.destructive === true, openWorldHint: false },
      },
      handler,
    );
  }
}

function toolError(text: string, meta: Record<string, unknown>): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }], _meta: meta };
}
