/**
 * Where the assistant server answers and where its protected-resource metadata lives (RFC 9728):
 * the gateway routes and challenges with these, auth-oauth serves the metadata, mcp checks them.
 */
export const MCP_PATH = '/mcp';
export const PROTECTED_RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';

/** The scopes an assistant may ask for, widest first (the hosted server asks for data:read_write). */
export const MCP_SCOPES = ['data:read_write', 'data:read', 'data:delete', 'task:add', 'project:delete'] as const;

/** The protected-resource metadata document of the server reached at `origin` (RFC 9728 §2). */
export function protectedResourceMetadata(origin: string) {
  return {
    resource: `${origin}${MCP_PATH}`,
    authorization_servers: [origin],
    bearer_methods_supported: ['header'],
    scopes_supported: [...MCP_SCOPES],
    resource_name: 'Doable',
  };
}
