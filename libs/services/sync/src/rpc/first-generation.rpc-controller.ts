import type { EdgeReply, EdgeRequest } from '@doable/contracts-common';
import { SyncSubjects } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { RpcController } from '@doable/shared-runtime';
import { Handles, type WithPrincipal } from '@doable/shared-transport';
import { FirstGenerationService } from '@doable/sync-dialects';

/** The first-generation interface over the transport: the feature service answers in its own shapes. */
@RpcController()
export class FirstGenerationRpcController {
  constructor(private readonly firstGeneration: FirstGenerationService) {}

  @Handles(SyncSubjects.firstGeneration, { principal: true })
  async handle(request: WithPrincipal<EdgeRequest>): Promise<EdgeReply> {
    if (request.dialect !== 'first-generation') throw new DomainError('ROUTE_NOT_FOUND', `the first generation does not speak ${request.dialect}`);
    return this.firstGeneration.handle(request);
  }
}
