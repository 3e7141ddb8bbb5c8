import { isObjectId } from '@doable/contracts-common';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { updateVersioned } from '../persistence/versioned-update';
import { FOLDER_COLUMNS, FOLDER_WIRE_COLUMNS, type Folder, type WireFolder } from './workspace.model';
import { asLeftWorkspaceTombstones, type MembershipChanges, VISIBLE_WORKSPACES, workspaceChangedSinceCondition, workspaceChangedSinceParams } from '../membership/membership';

/** A full sync's folders: the active ones of the user's workspaces. */
const ACTIVE_FOLDERS = `FROM sync.folders WHERE workspace_id IN (${VISIBLE_WORKSPACES}) AND NOT is_deleted ORDER BY workspace_id, child_order, id`;

/** A workspace's folders; every member of the workspace sees them. Every method runs on the caller's transaction. */
@Injectable()
export class FolderRepository {
  async insert(manager: EntityManager, folder: { workspaceId: string; name: string; defaultOrder: number | null; childOrder: number | null }, version: string): Promise<Folder> {
    const [row] = await manager.query<Folder[]>(
      `INSERT INTO sync.folders (workspace_id, name, default_order, child_order, version)
       VALUES ($1, $2, COALESCE($3, 0),
               COALESCE($4, (SELECT COALESCE(max(child_order), 0) + 1 FROM sync.folders WHERE workspace_id = $1 AND NOT is_deleted)), $5)
       RETURNING ${FOLDER_COLUMNS}`,
      [folder.workspaceId, folder.name, folder.defaultOrder, folder.childOrder, version],
    );
    return row;
  }

  /** A live folder by id (whoever asks: the caller checks the workspace's access next), locked for the rest of the transaction. */
  async findForUpdate(manager: EntityManager, folderId: string): Promise<Folder | undefined> {
    if (!isObjectId(folderId)) return undefined;
    const rows = await manager.query<Folder[]>(`SELECT ${FOLDER_COLUMNS} FROM sync.folders WHERE id = $1 AND NOT is_deleted FOR UPDATE`, [folderId]);
    return rows[0];
  }

  /** Whether a live folder with this id belongs to the workspace. */
  async existsInWorkspace(manager: EntityManager, folderId: string, workspaceId: string): Promise<boolean> {
    if (!isObjectId(folderId)) return false;
    const rows = await manager.query<unknown[]>(`SELECT 1 FROM sync.folders WHERE id = $1 AND workspace_id = $2 AND NOT is_deleted`, [folderId, workspaceId]);
    return rows.length > 0;
  }

  /** A workspace's live folders: what max_folders_per_workspace counts. */
  async countActive(manager: EntityManager, workspaceId: string): Promise<number> {
    const [{ count }] = await manager.query<Array<{ count: number }>>(`SELECT count(*)::int AS count FROM sync.folders WHERE workspace_id = $1 AND NOT is_deleted`, [workspaceId]);
    return count;
  }

  async update(manager: EntityManager, folderId: string, changes: Partial<{ name: string; default_order: number; child_order: number; is_deleted: boolean }>, version: string): Promise<void> {
    await updateVersioned(manager, 'sync.folders', [folderId], changes, version);
  }

  async listActive(manager: EntityManager, userId: string): Promise<Folder[]> {
    return manager.query<Folder[]>(`SELECT ${FOLDER_COLUMNS} ${ACTIVE_FOLDERS}`, [userId]);
  }

  /** listActive with the timestamps as wire text, for a full sync (it only writes them out). */
  async listActiveWire(manager: EntityManager, userId: string): Promise<WireFolder[]> {
    return manager.query<WireFolder[]>(`SELECT ${FOLDER_WIRE_COLUMNS} ${ACTIVE_FOLDERS}`, [userId]);
  }

  /** Changed after a version; those of workspaces joined since whole, tombstones for those of workspaces left. */
  async listChangedSince(manager: EntityManager, userId: string, version: string, memberships: MembershipChanges): Promise<Folder[]> {
    const rows = await manager.query<Folder[]>(
      `SELECT ${FOLDER_COLUMNS} FROM sync.folders WHERE ${workspaceChangedSinceCondition(memberships, 'NOT is_deleted')} ORDER BY id`,
      workspaceChangedSinceParams(userId, version, memberships),
    );
    return asLeftWorkspaceTombstones(rows, memberships.workspacesLeft);
  }
}
