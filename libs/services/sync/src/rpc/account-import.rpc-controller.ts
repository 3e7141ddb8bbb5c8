import { createHash } from 'node:crypto';
import { type EdgeReply, type EdgeRequest, jsonReply } from '@doable/contracts-common';
import { EDGE_WRITE_SCOPES, SyncSubjects } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { BLOB_STORE, type BlobStore } from '@doable/shared-storage';
import { CpuPool, RpcController } from '@doable/shared-runtime';
import { Handles, type WithPrincipal } from '@doable/shared-transport';
import { Inject } from '@nestjs/common';
import { AccountImporter } from '../portability/account-importer';
import type { AccountSnapshot } from '../portability/account-snapshot';
import { snapshotOfFullSync } from '../portability/full-sync-snapshot';
import { IMPORT_FILE_TASK } from '../portability/import-file.task';

/** The largest import file read (its bytes are hashed here, then read into a snapshot on the CPU pool). */
const MAX_IMPORT_BYTES = 100 * 1024 * 1024;

async function readAll(store: BlobStore, key: string): Promise<Buffer> {
  const blob = await store.get(key);
  if (!blob) throw new DomainError('INVALID_ARGUMENT_VALUE', 'Invalid argument value: file', { argument: 'file', explanation: 'the uploaded file is gone' });
  if (blob.size > MAX_IMPORT_BYTES) {
    blob.stream.destroy();
    throw new DomainError('INVALID_ARGUMENT_VALUE', 'Invalid argument value: file', { argument: 'file', explanation: `larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB` });
  }
  const chunks: Buffer[] = [];
  for await (const chunk of blob.stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * `POST /api/v1/import/todoist`: brings a Todoist account into this one. The file (a Todoist
 * backup ZIP, a Doable backup, or a full sync's JSON) arrives staged in the blob store by the
 * gateway; a small JSON full sync may also come as the request body. The answer counts what
 * was created and what was refused (a plan limit, say), by command type.
 * The import key is X-Request-Id when sent, else the file's hash: sending the same file again
 * replays rather than doubling the account.
 */
@RpcController()
export class AccountImportRpcController {
  constructor(
    private readonly importer: AccountImporter,
    @Inject(BLOB_STORE) private readonly store: BlobStore,
    private readonly pool: CpuPool,
  ) {}

  @Handles(SyncSubjects.accountImport, { principal: { anyScope: EDGE_WRITE_SCOPES.account_import } })
  async importAccount(request: WithPrincipal<EdgeRequest>): Promise<EdgeReply> {
    const principal = request.principal;
    let snapshot: AccountSnapshot;
    let digest: string;
    if (request.upload) {
      try {
        const bytes = await readAll(this.store, request.upload.key);
        digest = createHash('sha256').update(bytes).digest('hex');
        snapshot = await this.pool.run<AccountSnapshot>(IMPORT_FILE_TASK, bytes);
      } finally {
        await this.store.delete(request.upload.key);
      }
    } else if (request.body && typeof request.body === 'object') {
      digest = createHash('sha256').update(JSON.stringify(request.body)).digest('hex');
      snapshot = snapshotOfFullSync(request.body);
    } else {
      throw new DomainError('ARGUMENT_MISSING', 'Required argument is missing: file', { argument: 'file' });
    }
    const summary = await this.importer.import(principal, snapshot, `${principal.userId}:${request.requestId ?? digest}`);
    return jsonReply(200, { status: 'ok', ...summary });
  }
}
