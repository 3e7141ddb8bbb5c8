import { env } from '@doable/shared-config';
import type { ServiceDefinition } from '@doable/shared-runtime';
import { Module } from '@nestjs/common';
import { z } from 'zod';
import { McpRpcController } from './mcp.rpc-controller';
import { hostOriginPolicy } from './transport/host-origin-policy';
import { HOST_ORIGIN_POLICY, McpEndpoint } from './transport/mcp-endpoint';

const mcpEnv = z.object({
  /** Where users reach the product: its host is one the assistant server answers on. */
  PUBLIC_URL: env.publicUrl(),
  /** Host names `/mcp` answers on (comma-separated). Empty: PUBLIC_URL's host, localhost, 127.0.0.1, [::1]. */
  MCP_ALLOWED_HOSTS: z.string().default(''),
  /** Browser origins that may call `/mcp` (comma-separated). Empty: PUBLIC_URL's origin (and always the origin reached). */
  MCP_ALLOWED_ORIGINS: z.string().default(''),
});

function mcpModule(config: z.infer<typeof mcpEnv>) {
  @Module({
    controllers: [McpRpcController],
    providers: [McpEndpoint, { provide: HOST_ORIGIN_POLICY, useValue: hostOriginPolicy(config.PUBLIC_URL, config.MCP_ALLOWED_HOSTS, config.MCP_ALLOWED_ORIGINS) }],
  })
  class McpModule {}
  return McpModule;
}

/** The assistant server (MCP tools over api/v1 REST and the Sync API); stateless: no schema. */
export const mcpService = {
  name: 'mcp',
  defaultPort: 3007,
  env: mcpEnv,
  imports: (config) => [mcpModule(config)],
} satisfies ServiceDefinition<typeof mcpEnv>;
