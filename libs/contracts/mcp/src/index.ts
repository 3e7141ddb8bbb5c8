export * as McpSubjects from './subjects';
export * from './mcp-paths';
