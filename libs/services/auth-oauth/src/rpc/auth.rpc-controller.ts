import type { Principal } from '@doable/contracts-common';
import { AuthSubjects, type CreateAccountReply } from '@doable/contracts-auth';
import { RpcController } from '@doable/shared-runtime';
import { Handles } from '@doable/shared-transport';
import { AccountService } from '../accounts/account.service';
import { TokenService } from '../tokens/token.service';

@RpcController()
export class AuthRpcController {
  constructor(
    private readonly tokens: TokenService,
    private readonly accounts: AccountService,
  ) {}

  @Handles(AuthSubjects.verifyToken)
  verifyToken(request: { tokenHash: string }): Promise<Principal> {
    return this.tokens.verify(request.tokenHash);
  }

  @Handles(AuthSubjects.createAccount)
  createAccount(request: { email: string; fullName: string; password?: string; timezone: string }): Promise<CreateAccountReply> {
    return this.accounts.create(request);
  }
}
