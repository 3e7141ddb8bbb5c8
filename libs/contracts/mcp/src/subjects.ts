import { type EdgeReply, edgeReplySchema, type EdgeRequest, edgeRequestSchema, requestSubject } from '@doable/contracts-common';

/** `/mcp` requests (JSON-RPC messages of the Model Context Protocol) forwarded by the gateway. */
export const edge = requestSubject<EdgeRequest, EdgeReply>('mcp.edge.v1', edgeRequestSchema, edgeReplySchema);
