import type { EdgeReply, EdgeRequest } from '@doable/contracts-common';
import { RestSubjects } from '@doable/contracts-rest';
import { RpcController } from '@doable/shared-runtime';
import { Handles } from '@doable/shared-transport';
import { RestRouter } from './rest-router';

/** REST v1, REST v2 and api/v1 REST requests from the gateway. */
@RpcController()
export class RestRpcController {
  constructor(private readonly router: RestRouter) {}

  @Handles(RestSubjects.edge)
  handle(request: EdgeRequest): Promise<EdgeReply> {
    return this.router.handle(request);
  }
}
