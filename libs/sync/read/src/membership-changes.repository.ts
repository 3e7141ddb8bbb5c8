import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { MembershipChanges } from '@doable/sync-domain';

/**
 * A user's own memberships that changed after a sync token's version: the projects (and
 * workspaces) an incremental sync must carry whole (joined) or as tombstones (left). One indexed read of the
 * user's few membership rows (project_members_user), made once per incremental read that has
 * changes, and handed to every source.
 */
@Injectable()
export class MembershipChangesRepository {
  async since(manager: EntityManager, userId: string, version: string): Promise<MembershipChanges> {
    // One round trip for both kinds of membership.
    const rows = await manager.query<Array<{ kind: 'project' | 'workspace'; id: string; state: string }>>(
      `SELECT 'project' AS kind, project_id::text AS id, state FROM sync.project_members WHERE user_id = $1 AND version > $2
       UNION ALL
       SELECT 'workspace' AS kind, workspace_id::text AS id, state FROM sync.workspace_members WHERE user_id = $1 AND version > $2`,
      [userId, version],
    );
    const ids = (kind: string, active: boolean) => rows.filter((row) => row.kind === kind && (row.state === 'active') === active).map((row) => row.id);
    return { joined: ids('project', true), left: ids('project', false), workspacesJoined: ids('workspace', true), workspacesLeft: ids('workspace', false) };
  }
}
