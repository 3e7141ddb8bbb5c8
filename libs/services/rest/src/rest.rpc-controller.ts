import type { EdgeReply, EdgeRequest } from '@doable/contracts-common';
import { RestSubjects } from '@doable/contracts-rest';
import { RpcController } from '@doable/shared-runtime';
import { Handles, type WithPrincipal } from '@doable/shared-transport';
import { RestRouter } from './rest-router';

/** REST v1, REST v2 and api/v1 REST requests from the gateway. */
@RpcController()
export class RestRpcController {
  constructor(private readonly router: RestRouter) {}

  @Handles(RestSubjects.edge, { principal: true })
  handle(request: WithPrincipal<EdgeRequest>): Promise<EdgeReply> {
    return this.router.handle(request);
  }
}
