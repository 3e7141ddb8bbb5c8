import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { FilterFields } from '../filters/filter.repository';
import { updateVersioned } from '../persistence/versioned-update';
import { type WireWorkspaceFilter, WORKSPACE_FILTER_COLUMNS, WORKSPACE_FILTER_WIRE_COLUMNS, type WorkspaceFilter } from './workspace.model';
import { asLeftWorkspaceTombstones, type MembershipChanges, VISIBLE_WORKSPACES, workspaceChangedSinceCondition, workspaceChangedSinceParams } from '../membership/membership';

/** A full sync's workspace filters: the active ones of the user's workspaces. */
const ACTIVE_WORKSPACE_FILTERS = `FROM sync.workspace_filters WHERE workspace_id IN (${VISIBLE_WORKSPACES}) AND NOT is_deleted ORDER BY workspace_id, item_order, id`;

export interface NewWorkspaceFilter extends FilterFields {
  readonly workspaceId: string;
  readonly creatorId: string;
}

export type WorkspaceFilterChanges = Partial<{
  name: string;
  query: string;
  description: string | null;
  color: string;
  item_order: number;
  is_favorite: boolean;
  is_deleted: boolean;
  updater_id: string;
}>;

/** A workspace's shared filters; every member of the workspace sees them. Every method runs on the caller's transaction. */
@Injectable()
export class WorkspaceFilterRepository {
  async insert(manager: EntityManager, filter: NewWorkspaceFilter, version: string): Promise<WorkspaceFilter> {
    const [row] = await manager.query<WorkspaceFilter[]>(
      `INSERT INTO sync.workspace_filters (workspace_id, name, query, description, color, item_order, is_favorite, creator_id, updater_id, version)
       VALUES ($1, $2, $3, $4, $5,
               COALESCE($6, (SELECT COALESCE(max(item_order), 0) + 1 FROM sync.workspace_filters WHERE workspace_id = $1 AND NOT is_deleted)),
               $7, $8, $8, $9)
       RETURNING ${WORKSPACE_FILTER_COLUMNS}`,
      [filter.workspaceId, filter.name, filter.query, filter.description, filter.color, filter.itemOrder, filter.isFavorite, filter.creatorId, version],
    );
    return row;
  }

  /** How many filters the workspace has (not deleted): what max_workspace_filters counts. */
  async countActive(manager: EntityManager, workspaceId: string): Promise<number> {
    const [row] = await manager.query<Array<{ count: number }>>(`SELECT count(*)::int AS count FROM sync.workspace_filters WHERE workspace_id = $1 AND NOT is_deleted`, [workspaceId]);
    return row.count;
  }

  /**
   * A filter (not deleted), locked for the rest of the transaction, whoever may see it: the
   * caller checks the reader's membership of its workspace (requireWorkspaceAccess).
   */
  async findForUpdate(manager: EntityManager, filterId: string): Promise<WorkspaceFilter | undefined> {
    const rows = await manager.query<WorkspaceFilter[]>(`SELECT ${WORKSPACE_FILTER_COLUMNS} FROM sync.workspace_filters WHERE id = $1 AND NOT is_deleted FOR UPDATE`, [filterId]);
    return rows[0];
  }

  async update(manager: EntityManager, filterId: string, changes: WorkspaceFilterChanges, version: string): Promise<void> {
    await updateVersioned(manager, 'sync.workspace_filters', [filterId], changes, version);
  }

  async listActive(manager: EntityManager, userId: string): Promise<WorkspaceFilter[]> {
    return manager.query<WorkspaceFilter[]>(`SELECT ${WORKSPACE_FILTER_COLUMNS} ${ACTIVE_WORKSPACE_FILTERS}`, [userId]);
  }

  /** listActive with the timestamps as wire text, for a full sync (it only writes them out). */
  async listActiveWire(manager: EntityManager, userId: string): Promise<WireWorkspaceFilter[]> {
    return manager.query<WireWorkspaceFilter[]>(`SELECT ${WORKSPACE_FILTER_WIRE_COLUMNS} ${ACTIVE_WORKSPACE_FILTERS}`, [userId]);
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
