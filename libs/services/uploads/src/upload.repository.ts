import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

export type ThumbnailName = 'tn_s' | 'tn_m' | 'tn_l';

/** Width and height of each thumbnail made for an image. */
export type Thumbnails = Partial<Record<ThumbnailName, [number, number]>>;

export interface UploadRecord {
  readonly id: string;
  readonly userId: string;
  readonly fileName: string;
  readonly fileSize: number;
  readonly fileType: string;
  /** The folder of the upload's blobs: `<prefix>/original`, `<prefix>/tn_s`... */
  readonly storagePrefix: string;
  readonly thumbnails: Thumbnails;
  readonly fileDuration: number | null;
  readonly itemId: string | null;
  readonly noteId: string | null;
  readonly projectId: string | null;
  readonly ip: string | null;
  readonly uploadedAt: Date;
}

/** What an add records: the record less what the database and later comments fill in. */
export type NewUpload = Omit<UploadRecord, 'id' | 'itemId' | 'noteId' | 'uploadedAt'>;

interface Row {
  id: string;
  user_id: string;
  file_name: string;
  file_size: string;
  file_type: string;
  storage_key: string;
  thumbnails: Thumbnails;
  file_duration: number | null;
  item_id: string | null;
  note_id: string | null;
  project_id: string | null;
  ip: string | null;
  created_at: Date;
}

const COLUMNS = `id::text, user_id::text, file_name, file_size::text, file_type, storage_key, thumbnails, file_duration,
  item_id::text, note_id::text, project_id::text, ip, created_at`;

function toRecord(row: Row): UploadRecord {
  return {
    id: row.id,
    userId: row.user_id,
    fileName: row.file_name,
    fileSize: Number(row.file_size),
    fileType: row.file_type,
    storagePrefix: row.storage_key,
    thumbnails: row.thumbnails,
    fileDuration: row.file_duration,
    itemId: row.item_id,
    noteId: row.note_id,
    projectId: row.project_id,
    ip: row.ip,
    uploadedAt: row.created_at,
  };
}

/** The uploads schema's SQL. Deleted uploads are kept (deleted_at) until the sweep has removed their bytes. */
@Injectable()
export class UploadRepository {
  async insert(manager: EntityManager, upload: NewUpload): Promise<UploadRecord> {
    const rows = await manager.query<Row[]>(
      `INSERT INTO uploads.files (user_id, file_name, file_size, file_type, storage_key, upload_state, thumbnails, file_duration, project_id, ip)
       VALUES ($1, $2, $3, $4, $5, 'completed', $6, $7, $8, $9) RETURNING ${COLUMNS}`,
      [upload.userId, upload.fileName, upload.fileSize, upload.fileType, upload.storagePrefix, JSON.stringify(upload.thumbnails), upload.fileDuration, upload.projectId, upload.ip],
    );
    return toRecord(rows[0]);
  }

  /** A live upload by id (any owner: the file route checks the URL's signature, not a user). */
  async find(manager: EntityManager, id: string): Promise<UploadRecord | null> {
    const rows = await manager.query<Row[]>(`SELECT ${COLUMNS} FROM uploads.files WHERE id = $1 AND deleted_at IS NULL`, [id]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /** The user's live uploads, newest first, with ids below `beforeId` when given. */
  async list(manager: EntityManager, userId: string, limit: number, beforeId: string | null): Promise<UploadRecord[]> {
    const rows = await manager.query<Row[]>(
      `SELECT ${COLUMNS} FROM uploads.files
        WHERE user_id = $1 AND deleted_at IS NULL AND ($2::bigint IS NULL OR id < $2::bigint)
        ORDER BY files.id DESC LIMIT $3`,
      [userId, beforeId, limit],
    );
    return rows.map(toRecord);
  }

  /** Marks the user's upload deleted; false when it is not theirs or already gone. */
  async markDeleted(manager: EntityManager, userId: string, id: string): Promise<boolean> {
    const [, affected] = await manager.query<[unknown[], number]>(`UPDATE uploads.files SET deleted_at = now() WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL`, [id, userId]);
    return affected > 0;
  }

  /** Links an upload to the comment that uses it (idempotent: the same values again change nothing). */
  async link(manager: EntityManager, id: string, link: { noteId: string; itemId: string | null; projectId: string | null }): Promise<void> {
    await manager.query(`UPDATE uploads.files SET note_id = $2, item_id = $3, project_id = COALESCE($4, project_id) WHERE id = $1 AND deleted_at IS NULL`, [
      id,
      link.noteId,
      link.itemId,
      link.projectId,
    ]);
  }

  /** Deleted uploads whose bytes are still stored (the sweep's work). */
  async deletedWithBytes(manager: EntityManager, limit: number): Promise<Array<{ id: string; storagePrefix: string }>> {
    const rows = await manager.query<Array<{ id: string; storage_key: string }>>(
      `SELECT id::text, storage_key FROM uploads.files WHERE deleted_at IS NOT NULL AND NOT bytes_removed ORDER BY deleted_at LIMIT $1`,
      [limit],
    );
    return rows.map((row) => ({ id: row.id, storagePrefix: row.storage_key }));
  }

  async markBytesRemoved(manager: EntityManager, id: string): Promise<void> {
    await manager.query(`UPDATE uploads.files SET bytes_removed = true WHERE id = $1`, [id]);
  }

  /** Which of these blob prefixes belong to a record (live or deleted): the rest are orphans. */
  async knownPrefixes(manager: EntityManager, prefixes: readonly string[]): Promise<Set<string>> {
    if (prefixes.length === 0) return new Set();
    const rows = await manager.query<Array<{ storage_key: string }>>(`SELECT storage_key FROM uploads.files WHERE storage_key = ANY($1::text[])`, [prefixes]);
    return new Set(rows.map((row) => row.storage_key));
  }

  async urlKey(manager: EntityManager): Promise<string> {
    const rows = await manager.query<Array<{ secret: string }>>(`SELECT secret FROM uploads.url_key WHERE id = 1`);
    if (!rows[0]) throw new Error('uploads.url_key has no key: run the uploads migrations');
    return rows[0].secret;
  }
}
