import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { MembershipChanges } from '../projects/project.model';

/**
 * A user's own memberships that changed after a sync token's version: the projects an
 * incremental sync must carry whole (joined) or as tombstones (left). One indexed read of the
 * user's few membership rows (project_members_user), made once per incremental read that has
 * changes, and handed to every source.
 */
@Injectable()
export class MembershipChangesRepository {
  async since(manager: EntityManager, userId: string, version: string): Promise<MembershipChanges> {
    const rows = await manager.query<Array<{ project_id: string; state: string }>>(
      `SELECT project_id::text, state FROM sync.project_members WHERE user_id = $1 AND version > $2`,
      [userId, version],
    );
    return {
      joined: rows.filter((row) => row.state === 'active').map((row) => row.project_id),
      left: rows.filter((row) => row.state !== 'active').map((row) => row.project_id),
    };
  }
}
