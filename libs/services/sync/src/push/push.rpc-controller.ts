import { SyncSubjects } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { RpcController } from '@doable/shared-runtime';
import { Handles } from '@doable/shared-transport';
import { PushTokens } from './push-tokens.service';

/** Push tokens over the transport, for the gateway's WebSocket endpoint. */
@RpcController()
export class PushRpcController {
  constructor(private readonly tokens: PushTokens) {}

  @Handles(SyncSubjects.verifyPushToken)
  async verify(request: { token: string }): Promise<{ userId: string }> {
    const userId = await this.tokens.verify(request.token);
    if (userId === undefined) throw new DomainError('AUTH_REQUIRED');
    return { userId };
  }
}
