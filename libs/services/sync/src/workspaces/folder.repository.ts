import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { MembershipChanges } from '../projects/project.model';
import { asLeftWorkspaceTombstones, FOLDER_COLUMNS, type Folder, VISIBLE_WORKSPACES, workspaceChangedSinceCondition, workspaceChangedSinceParams } from './workspace.model';

/** A workspace's folders; every member of the workspace sees them. Every method runs on the caller's transaction. */
@Injectable()
export class FolderRepository {
  async listActive(manager: EntityManager, userId: string): Promise<Folder[]> {
    return manager.query<Folder[]>(
      `SELECT ${FOLDER_COLUMNS} FROM sync.folders WHERE workspace_id IN (${VISIBLE_WORKSPACES}) AND NOT is_deleted ORDER BY workspace_id, child_order, id`,
      [userId],
    );
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
