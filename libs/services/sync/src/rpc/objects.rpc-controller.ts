import { SyncSubjects, type ObjectsReply, type ObjectsRequest } from '@doable/contracts-sync';
import { RpcController } from '@doable/shared-runtime';
import { Handles, type WithBodyBytes } from '@doable/shared-transport';
import { ObjectsService } from '../objects/objects.service';

/** Commands and object reads for the rest service, over the transport. */
@RpcController()
export class ObjectsRpcController {
  constructor(private readonly objects: ObjectsService) {}

  @Handles(SyncSubjects.objects)
  handle(request: ObjectsRequest): Promise<WithBodyBytes<ObjectsReply>> {
    return this.objects.handle(request);
  }
}
