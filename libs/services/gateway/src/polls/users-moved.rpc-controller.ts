import { GatewayPolls } from '@doable/contracts-sync';
import { RpcController } from '@doable/shared-runtime';
import { Handles } from '@doable/shared-transport';
import { Inject } from '@nestjs/common';
import type { UnchangedAnswers } from './unchanged-answers';
import { UNCHANGED_ANSWERS } from './unchanged-answers.token';

/** Embedded mode's half of the users-moved barrier: the one gateway forgets, then answers. */
@RpcController()
export class UsersMovedRpcController {
  constructor(@Inject(UNCHANGED_ANSWERS) private readonly answers: UnchangedAnswers | null) {}

  @Handles(GatewayPolls.usersMoved)
  moved(request: GatewayPolls.UsersMovedRequest): { forgotten: number } {
    return { forgotten: this.answers?.moved(request.userIds) ?? 0 };
  }
}
