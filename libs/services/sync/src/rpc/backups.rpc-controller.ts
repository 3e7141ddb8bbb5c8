import { type EdgeReply, type EdgeRequest, jsonReply } from '@doable/contracts-common';
import { readScopes, SyncSubjects } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { Database, RpcController } from '@doable/shared-runtime';
import { Handles, type WithPrincipal } from '@doable/shared-transport';
import { BackupRepository } from '../backups/backup.repository';

/** The read policy's scopes for backups (`backups:read` on its own, or a token that may read data). */
const BACKUP_SCOPES = readScopes('backups');

/** What `file` names: a version (`2026-11-25 03:00`), or the download URL backups/get gave. */
function versionOf(file: string): string {
  if (/^https?:\/\//i.test(file)) {
    try {
      return new URL(file).searchParams.get('file') ?? '';
    } catch {
      return '';
    }
  }
  return file;
}

/**
 * Backups over the transport: the list (`[{version, url}]` in every generation, as the public
 * service answers it) and the download, answered as a blob the gateway streams (the bytes
 * never cross NATS). Another user's backup, or a version that is not there, is 404.
 */
@RpcController()
export class BackupsRpcController {
  constructor(
    private readonly database: Database,
    private readonly backups: BackupRepository,
  ) {}

  @Handles(SyncSubjects.backups, { principal: { anyScope: BACKUP_SCOPES } })
  async backupsEdge(request: WithPrincipal<EdgeRequest>): Promise<EdgeReply> {
    const principal = request.principal;
    const manager = this.database.dataSource.manager;
    if (request.path.endsWith('/backups/download')) {
      const raw = request.query['file'];
      const file = typeof raw === 'string' ? raw : undefined;
      if (!file) throw new DomainError('ARGUMENT_MISSING', 'Required argument is missing: file', { argument: 'file' });
      const backup = await this.backups.findByVersion(manager, principal.userId, versionOf(file));
      if (!backup) throw new DomainError('NOT_FOUND', 'Backup not found');
      return {
        status: 200,
        body: null,
        blob: { key: backup.blob_key, size: Number(backup.size), contentType: 'application/zip', fileName: `todoist-backup-${backup.version.replace(/[ :]/g, '-')}.zip`, disposition: 'attachment' },
      };
    }
    const origin = request.origin ?? '';
    const list = await this.backups.list(manager, principal.userId);
    return jsonReply(
      200,
      list.map((backup) => ({ version: backup.version, url: `${origin}/api/v1/backups/download?file=${encodeURIComponent(backup.version)}` })),
    );
  }

}
