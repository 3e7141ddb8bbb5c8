import type { Principal } from '@doable/contracts-common';
import { BLOB_STORE, type BlobStore } from '@doable/shared-storage';
import { Database } from '@doable/shared-runtime';
import { Inject, Injectable } from '@nestjs/common';
import { answerText, SYNC_DIALECTS } from '@doable/sync-dialects';
import { SyncEngine } from '@doable/sync-engine';
import { snapshotOfFullSync } from '../portability/full-sync-snapshot';
import { projectCsvsOf } from '../portability/snapshot-csv';
import { ACCOUNT_JSON_ENTRY, type ArchiveEntry, zipArchive } from '../portability/account-archive';
import { BackupRepository } from './backup.repository';

/** A backup's version: the minute it was made, as the public service names them ("2018-07-13 02:03"). */
export function backupVersion(at: Date): string {
  return at.toISOString().slice(0, 16).replace('T', ' ');
}

/**
 * Makes one backup of an account: its full sync in the api/v1 dialect (what an exact restore
 * reads) and one CSV per project (what a Todoist user expects to open), zipped as a stream into
 * the blob store under `backups/<user>/<stamp>.zip`, then recorded. The read is the Sync API's
 * own full sync, so a backup holds exactly what the account's clients see.
 */
@Injectable()
export class BackupMaker {
  constructor(
    private readonly database: Database,
    private readonly engine: SyncEngine,
    private readonly backups: BackupRepository,
    @Inject(BLOB_STORE) private readonly store: BlobStore,
  ) {}

  async make(userId: string, at = new Date()): Promise<{ version: string; size: number }> {
    const principal: Principal = { userId, scopes: ['data:read'], appId: null, tokenKind: 'personal' };
    const dialect = SYNC_DIALECTS['sync-api-v1'];
    const request = dialect.parseRequest({ sync_token: '*', resource_types: '["all"]' }, { userId });
    const account = answerText(dialect.render(await this.engine.sync(principal, request), request));
    const entries: ArchiveEntry[] = [...projectCsvsOf(snapshotOfFullSync(JSON.parse(account))), { name: ACCOUNT_JSON_ENTRY, content: account }];
    const version = backupVersion(at);
    const key = `backups/${userId}/${version.replace(/[ :]/g, '-')}-${Date.now().toString(36)}.zip`;
    const stored = await this.store.put(key, zipArchive(entries), { contentType: 'application/zip' });
    const replaced = await this.backups.record(this.database.dataSource.manager, userId, version, key, stored.size);
    if (replaced) await this.store.delete(replaced);
    return { version, size: stored.size };
  }
}
