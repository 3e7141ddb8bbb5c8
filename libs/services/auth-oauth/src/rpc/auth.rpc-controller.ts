import { AuthSubjects, type ChangeCredentialsRequest, type CreateAccountReply, type VerifiedToken } from '@doable/contracts-auth';
import { RpcController } from '@doable/shared-runtime';
import { Handles } from '@doable/shared-transport';
import { AccountService } from '../accounts/account.service';
import { SessionService } from '../sessions/session.service';
import { TokenService } from '../tokens/token.service';
import { AppWebhookService } from '../webhooks/app-webhook.service';

@RpcController()
export class AuthRpcController {
  constructor(
    private readonly tokens: TokenService,
    private readonly accounts: AccountService,
    private readonly sessions: SessionService,
    private readonly webhooks: AppWebhookService,
  ) {}

  @Handles(AuthSubjects.signWebhook)
  signWebhook(request: { appId: string; body: string }): Promise<{ signature: string }> {
    return this.webhooks.sign(request.appId, request.body);
  }

  @Handles(AuthSubjects.verifyToken)
  verifyToken(request: { tokenHash: string }): Promise<VerifiedToken> {
    return this.tokens.verify(request.tokenHash);
  }

  @Handles(AuthSubjects.createAccount)
  createAccount(request: { email: string; fullName: string; password?: string; timezone: string }): Promise<CreateAccountReply> {
    // Only the operator's tools call it (never the gateway): the operator vouches for the address.
    return this.accounts.create({ ...request, emailVerified: true });
  }

  @Handles(AuthSubjects.setPassword)
  async setPassword(request: { userId: string; password: string }): Promise<{ ok: true }> {
    await this.accounts.setPassword(request.userId, request.password);
    await this.sessions.endAllFor(request.userId);
    return { ok: true };
  }

  @Handles(AuthSubjects.changeCredentials)
  async changeCredentials(request: ChangeCredentialsRequest): Promise<{ email: string }> {
    const { email, repeated } = await this.accounts.changeCredentials(request);
    // A new password signs every browser out; API tokens are separate and stay valid. A later
    // copy of a change already made changed nothing, so it ends nothing either: the sessions
    // started since (with the new password) stay.
    if (request.password !== undefined && !repeated) await this.sessions.endAllFor(request.userId);
    return { email };
  }
}
