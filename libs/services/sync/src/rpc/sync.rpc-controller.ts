import { type EdgeReply, type EdgeRequest, jsonReply } from '@doable/contracts-common';
import { SyncSubjects } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { Database, RpcController } from '@doable/shared-runtime';
import { Handles } from '@doable/shared-transport';
import { renderSyncEnvelope, type SyncObjectWriters } from '../dialects/sync-envelope';
import { parseSyncRequest } from '../dialects/sync-request.parser';
import { syncApiV1Writers } from '../dialects/sync-api-v1.dialect';
import { syncV9Writers } from '../dialects/sync-v9.dialect';
import { SyncEngine } from '../engine/sync-engine';
import { UserProfileRepository } from '../users/user-profile.repository';

const WRITERS: Partial<Record<EdgeRequest['dialect'], SyncObjectWriters>> = { 'sync-v9': syncV9Writers, 'sync-api-v1': syncApiV1Writers };

/** The Sync API over the transport: parse the dialect, run the engine, render the dialect. */
@RpcController()
export class SyncRpcController {
  constructor(
    private readonly engine: SyncEngine,
    private readonly database: Database,
    private readonly profiles: UserProfileRepository,
  ) {}

  @Handles(SyncSubjects.edge)
  async sync(request: EdgeRequest): Promise<EdgeReply> {
    const writers = WRITERS[request.dialect];
    if (!writers) throw new DomainError('ROUTE_NOT_FOUND', `sync does not speak ${request.dialect}`);
    if (!request.principal) throw new DomainError('AUTH_REQUIRED');
    const result = await this.engine.sync(request.principal, parseSyncRequest(request.body));
    // Serialised here, once: a full sync of a large account is megabytes the gateway need not re-encode.
    return jsonReply(200, renderSyncEnvelope(result, writers));
  }

  @Handles(SyncSubjects.userStatus)
  async userStatus(request: { userId: string }): Promise<{ exists: boolean }> {
    const user = await this.profiles.find(this.database.dataSource.manager, request.userId);
    return { exists: user !== undefined };
  }
}
