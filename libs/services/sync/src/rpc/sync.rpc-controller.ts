import { type EdgeReply, type EdgeRequest, JSON_MEDIA_TYPE } from '@doable/contracts-common';
import { SyncSubjects } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { Database, RpcController } from '@doable/shared-runtime';
import { Handles, type WithPrincipal } from '@doable/shared-transport';
import { answerBody, isSyncDialect, SYNC_DIALECTS } from '@doable/sync-dialects';
import { SyncEngine } from '@doable/sync-engine';
import { PushTokens } from '../push/push-tokens.service';
import { UserProfileRepository } from '@doable/sync-domain';

/** The Sync API over the transport: the dialect parses, the engine runs, the dialect renders. */
@RpcController()
export class SyncRpcController {
  constructor(
    private readonly engine: SyncEngine,
    private readonly database: Database,
    private readonly profiles: UserProfileRepository,
    private readonly push: PushTokens,
  ) {}

  @Handles(SyncSubjects.edge, { principal: true })
  async sync(request: WithPrincipal<EdgeRequest>): Promise<EdgeReply> {
    if (!isSyncDialect(request.dialect)) throw new DomainError('ROUTE_NOT_FOUND', `sync does not speak ${request.dialect}`);
    const dialect = SYNC_DIALECTS[request.dialect];
    const parsed = dialect.parseRequest(request.body, { userId: request.principal.userId });
    const result = await this.engine.sync(request.principal, parsed);
    // The user object names the push channel, with a token minted for this user at the caller's
    // origin, and the avatar URLs at the same origin.
    const read = result.read?.user
      ? { ...result.read, websocketUrl: await this.push.websocketUrl(request.principal.userId, request.origin), avatarOrigin: this.push.originFor(request.origin) }
      : result.read;
    const rendered = dialect.render({ ...result, read }, parsed);
    // Serialised here, once: a full sync of a large account is megabytes the gateway need not
    // re-encode; its tasks and comments are PostgreSQL's text, written into its bytes as they are.
    const reply: EdgeReply = { status: 200, body: answerBody(rendered), contentType: JSON_MEDIA_TYPE };
    // A poll that found nothing new: the gateway may give the same answer again until the user's marks move.
    return parsed.commands.length === 0 && result.read?.unchanged ? { ...reply, unchangedFor: request.principal.userId } : reply;
  }

  @Handles(SyncSubjects.userStatus)
  async userStatus(request: { userId: string }): Promise<{ exists: boolean }> {
    const user = await this.profiles.find(this.database.dataSource.manager, request.userId);
    return { exists: user !== undefined };
  }
}
