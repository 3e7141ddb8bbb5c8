import { isProjectRole, type ProjectRole } from '@doable/contracts-sync';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/**
 * Project membership: who is in a project and with which role. VISIBLE_PROJECTS (item.model)
 * is the read side's one definition of it; this is the write side's.
 */
@Injectable()
export class ProjectMembersRepository {
  /** The user's role in the project, or undefined when they are not an active member. */
  async roleOf(manager: EntityManager, projectId: string, userId: string): Promise<ProjectRole | undefined> {
    const rows = await manager.query<Array<{ role: string }>>(
      `SELECT role FROM sync.project_members WHERE project_id = $1 AND user_id = $2 AND state = 'active'`,
      [projectId, userId],
    );
    const role = rows[0]?.role;
    return isProjectRole(role) ? role : undefined;
  }
}
