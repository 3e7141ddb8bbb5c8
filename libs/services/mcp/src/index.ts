export { mcpService } from './mcp.service-definition';
export { ALL_TOOLS } from './tools';
