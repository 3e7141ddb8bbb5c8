import { PlansSubjects, type UserPlanLimits } from '@doable/contracts-plans';
import { RpcController } from '@doable/shared-runtime';
import { Handles } from '@doable/shared-transport';
import { PlansService } from './plans.service';

@RpcController()
export class PlansRpcController {
  constructor(private readonly plans: PlansService) {}

  @Handles(PlansSubjects.userLimits)
  userLimits(request: { userId: string }): Promise<UserPlanLimits> {
    return this.plans.limitsFor(request.userId);
  }
}
