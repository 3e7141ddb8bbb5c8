import type { EdgeBlob, EdgeRequest, Principal } from '@doable/contracts-common';
import { PlansSubjects } from '@doable/contracts-plans';
import { EDGE_WRITE_SCOPES, mayWriteAt, type ObjectEvent, readDecision, readScopes } from '@doable/contracts-sync';
import { streamedFileFolder, type UploadLimit } from '@doable/contracts-uploads';
import { DomainError } from '@doable/shared-errors';
import { Database, type Tx } from '@doable/shared-runtime';
import { BLOB_STORE, type BlobStore } from '@doable/shared-storage';
import { ServiceClient } from '@doable/shared-transport';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { LastKnownPlans } from './last-known-plans';
import { audioDuration, detectType, isAudio, isImage, makeThumbnails } from './file-inspection';
import { type Thumbnails, type UploadRecord, UploadRepository } from './upload.repository';
import { type FileVariant, thumbnailName, UploadUrls } from './upload-urls';

export const UPLOADS_SETTINGS = Symbol('UPLOADS_SETTINGS');

export interface UploadsSettings {
  /** The server's own ceiling on one file, whatever the plan says (UPLOAD_MAX_MB). */
  readonly maxMb: number;
  /** The file URLs' signing key; empty: the key the migration made (uploads.url_key). */
  readonly urlKey: string;
}

const MIB = 1024 * 1024;

const MAX_FILE_NAME = 255;

export type UploadedFile = NonNullable<EdgeRequest['upload']>;

/** The object events linkNote reads more of: comments added or changed (with a file or not: the entry says). */
export function mayLinkNote(event: Pick<ObjectEvent, 'objectType' | 'eventType'>): boolean {
  return event.objectType === 'note' && (event.eventType === 'added' || event.eventType === 'updated');
}

function scopeRefusal(action: string, scopes: readonly string[]): DomainError {
  return new DomainError('FORBIDDEN', `This token may not ${action} uploads`, { required_scopes: scopes });
}

/** A file name as stored: the client's, trimmed of any path, at most 255 characters, never empty. */
export function cleanFileName(given: string | undefined): string {
  const base = (given ?? '').split(/[/\\]/).pop()?.trim() ?? '';
  const printable = base.replace(/[\u0000-\u001f\u007f]/g, '');
  return printable.length === 0 ? 'file' : printable.slice(0, MAX_FILE_NAME);
}

/**
 * Uploads: the plan's limit, turning a staged file into a record (type from the bytes,
 * thumbnails, duration), listing, deleting, serving, and linking to the comment that uses it.
 * No transaction is held across the blob store or another service: bytes move first, the
 * record is written last in one short statement.
 */
@Injectable()
export class UploadsService {
  private urls?: UploadUrls;
  private readonly plans = new LastKnownPlans();

  constructor(
    private readonly database: Database,
    private readonly uploads: UploadRepository,
    private readonly services: ServiceClient,
    @Inject(BLOB_STORE) private readonly store: BlobStore,
    @Inject(UPLOADS_SETTINGS) private readonly settings: UploadsSettings,
  ) {}

  /**
   * `manager`: inside a transaction, its own (embedded PostgreSQL runs one statement at a time:
   * a read on another connection while a transaction is open would wait for it forever).
   */
  async urlSigner(manager: EntityManager = this.database.dataSource.manager): Promise<UploadUrls> {
    this.urls ??= new UploadUrls(this.settings.urlKey !== '' ? this.settings.urlKey : await this.uploads.urlKey(manager));
    return this.urls;
  }

  /** How large a file the caller may send: refused without a writing scope or the plan's `uploads` feature. */
  async limit(principal: Principal): Promise<UploadLimit> {
    if (!mayWriteAt(principal, 'upload_add')) throw scopeRefusal('add', EDGE_WRITE_SCOPES.upload_add);
    // Plans down: the user's last known plan (LastKnownPlans), not a 503 for every upload.
    const { current: plan } = await this.plans.get(principal.userId, () => this.services.request(PlansSubjects.userLimits, { userId: principal.userId }));
    if (!plan.uploads) throw new DomainError('FEATURE_NOT_IN_PLAN', `Your plan (${plan.plan_name}) does not include uploads`, { feature: 'uploads', plan: plan.plan_name });
    return { maxBytes: Math.min(plan.upload_limit_mb, this.settings.maxMb) * MIB };
  }

  /**
   * A streamed file becomes an upload where it lies (the gateway wrote it to the folder an
   * upload keeps: its bytes pass through the store once): checked against the limit again (the
   * plan may have changed), typed from its bytes, given its thumbnails beside it, and recorded.
   * A refusal or failure removes the folder: no bytes stay behind.
   */
  async add(principal: Principal, file: UploadedFile, fields: { fileName?: string; projectId?: string }): Promise<UploadRecord> {
    const prefix = streamedFileFolder(file.key);
    if (prefix === null) throw new DomainError('INVALID_ARGUMENT_VALUE', 'Not a streamed upload', { argument: 'file' });
    try {
      const { maxBytes } = await this.limit(principal);
      const original = file.key;
      const stored = await this.store.stat(original);
      if (!stored) throw new DomainError('INVALID_ARGUMENT_VALUE', 'The uploaded file is gone (the upload took too long)', { argument: 'file' });
      if (stored.size > maxBytes) throw new DomainError('UPLOAD_SIZE_LIMIT_REACHED', undefined, { limit: 'upload_limit_mb', max_count: maxBytes / MIB });
      const fileType = await detectType(this.store, original, file.declaredType);
      const thumbnails: Thumbnails = isImage(fileType) ? await makeThumbnails(this.store, original, stored.size, prefix) : {};
      const fileDuration = isAudio(fileType) ? await audioDuration(this.store, original, fileType) : null;
      return await this.uploads.insert(this.database.dataSource.manager, {
        userId: principal.userId,
        fileName: cleanFileName(fields.fileName ?? file.fileName),
        fileSize: stored.size,
        fileType,
        storagePrefix: prefix,
        thumbnails,
        fileDuration,
        projectId: fields.projectId !== undefined && /^[0-9]{1,18}$/.test(fields.projectId) ? fields.projectId : null,
        ip: null,
      });
    } catch (err) {
      await this.removeBytes(prefix);
      throw err;
    }
  }

  async list(principal: Principal, limit: number, beforeId: string | null): Promise<UploadRecord[]> {
    if (readDecision('uploads', principal) !== 'ok') throw scopeRefusal('list', readScopes('uploads'));
    return this.uploads.list(this.database.dataSource.manager, principal.userId, limit, beforeId);
  }

  /**
   * Deletes the caller's upload named by its URL (another user's, or an unknown URL: 404). A
   * comment that uses it keeps its attachment as written; the URL answers 404 from now on
   * (Todoist documents no refusal, and the bytes are the owner's to remove).
   */
  async delete(principal: Principal, fileUrl: string): Promise<void> {
    if (!mayWriteAt(principal, 'upload_delete')) throw scopeRefusal('delete', EDGE_WRITE_SCOPES.upload_delete);
    const named = (await this.urlSigner()).parse(fileUrl);
    const manager = this.database.dataSource.manager;
    const record = named && named.variant === 'original' ? await this.uploads.find(manager, named.id) : null;
    if (!record || record.userId !== principal.userId || !(await this.uploads.markDeleted(manager, principal.userId, record.id))) {
      throw new DomainError('NOT_FOUND', 'No such upload');
    }
    // At once when we can; the sweep retries what fails here.
    try {
      await this.removeBytes(record.storagePrefix);
      await this.uploads.markBytesRemoved(manager, record.id);
    } catch {
      /* left for the orphan sweep */
    }
  }

  /** The blob a file URL path names, to stream; null (404) for a wrong signature, a deleted upload, or a missing thumbnail. */
  async blobFor(path: string): Promise<EdgeBlob | null> {
    const named = (await this.urlSigner()).parsePath(path);
    if (!named) return null;
    const record = await this.uploads.find(this.database.dataSource.manager, named.id);
    if (!record) return null;
    const variant: FileVariant = named.variant;
    if (variant !== 'original' && !record.thumbnails[variant]) return null;
    const key = `${record.storagePrefix}/${variant}`;
    const stored = await this.store.stat(key);
    if (!stored) return null;
    const original = variant === 'original';
    return {
      key,
      size: stored.size,
      contentType: original ? record.fileType : 'image/jpeg',
      fileName: original ? record.fileName : thumbnailName(record.fileName),
      // Images show in a browser; everything else is saved (no uploaded HTML ever renders on our origin).
      disposition: !original || isImage(record.fileType) ? 'inline' : 'attachment',
    };
  }

  /**
   * A comment was added or changed: when its `file_attachment.file_url` names one of our
   * uploads (a valid signature), the upload records its note, task and project. Idempotent:
   * the same event again writes the same values. Only the uploader's own comments link.
   */
  async linkNote(event: ObjectEvent, tx: Tx): Promise<void> {
    if (!mayLinkNote(event) || !event.fileUrl) return;
    const named = (await this.urlSigner(tx.manager)).parse(event.fileUrl);
    if (!named || named.variant !== 'original') return;
    const record = await this.uploads.find(tx.manager, named.id);
    if (!record || record.userId !== event.initiatorId) return;
    await this.uploads.link(tx.manager, record.id, { noteId: event.objectId, itemId: event.parentItemId, projectId: event.parentProjectId });
  }

  async removeBytes(prefix: string): Promise<void> {
    const keys: string[] = [];
    for await (const { key } of this.store.list(`${prefix}/`)) keys.push(key);
    for (const key of keys) await this.store.delete(key);
  }
}
