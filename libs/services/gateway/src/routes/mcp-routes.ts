import { MCP_PATH } from '@doable/contracts-mcp';
import { McpSubjects } from '@doable/contracts-mcp';
import type { Route } from './route';

/**
 * The assistant server. POST only: it is stateless (no session to stream to or to end), and the
 * MCP transport lets a server answer GET and DELETE with 405, which the route table does (with
 * `Allow: POST`). A call may run a tool over many objects: it gets a write's deadline, and is
 * never resent (a tool call carries no idempotency key of its own).
 */
export const MCP_ROUTES: readonly Route[] = [
  {
    method: 'POST',
    path: MCP_PATH,
    subject: McpSubjects.edge,
    dialect: 'mcp',
    auth: 'bearer',
    forwardHeaders: ['origin', 'accept', 'mcp-protocol-version'],
    challenge: 'protected-resource',
  },
];
