import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { MembershipChanges } from '../projects/project.model';
import {
  asLeftWorkspaceTombstones,
  VISIBLE_WORKSPACES,
  WORKSPACE_FILTER_COLUMNS,
  type WorkspaceFilter,
  workspaceChangedSinceCondition,
  workspaceChangedSinceParams,
} from './workspace.model';

/** A workspace's shared filters; every member of the workspace sees them. Every method runs on the caller's transaction. */
@Injectable()
export class WorkspaceFilterRepository {
  async listActive(manager: EntityManager, userId: string): Promise<WorkspaceFilter[]> {
    return manager.query<WorkspaceFilter[]>(
      `SELECT ${WORKSPACE_FILTER_COLUMNS} FROM sync.workspace_filters WHERE workspace_id IN (${VISIBLE_WORKSPACES}) AND NOT is_deleted ORDER BY workspace_id, item_order, id`,
      [userId],
    );
  }

  /** Changed after a version; those of workspaces joined since whole, tombstones for those of workspaces left. */
  async listChangedSince(manager: EntityManager, userId: string, version: string, memberships: MembershipChanges): Promise<WorkspaceFilter[]> {
    const rows = await manager.query<WorkspaceFilter[]>(
      `SELECT ${WORKSPACE_FILTER_COLUMNS} FROM sync.workspace_filters WHERE ${workspaceChangedSinceCondition(memberships, 'NOT is_deleted')} ORDER BY id`,
      workspaceChangedSinceParams(userId, version, memberships),
    );
    return asLeftWorkspaceTombstones(rows, memberships.workspacesLeft);
  }
}
