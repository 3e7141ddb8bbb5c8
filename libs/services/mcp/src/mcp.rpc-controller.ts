import type { EdgeReply, EdgeRequest } from '@doable/contracts-common';
import { McpSubjects } from '@doable/contracts-mcp';
import { RpcController } from '@doable/shared-runtime';
import { Handles, type WithPrincipal } from '@doable/shared-transport';
import { McpEndpoint } from './transport/mcp-endpoint';

/** `/mcp` requests from the gateway. */
@RpcController()
export class McpRpcController {
  constructor(private readonly endpoint: McpEndpoint) {}

  @Handles(McpSubjects.edge, { principal: true })
  handle(request: WithPrincipal<EdgeRequest>): Promise<EdgeReply> {
    return this.endpoint.handle(request);
  }
}
