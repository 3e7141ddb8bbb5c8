import type { EntityManager } from 'typeorm';
import { VISIBLE_PROJECTS } from '../membership/membership';

/** The membership `m` is of a project someone besides the user ($1) is an active member of: a shared one. */
const SHARED_WITH_SOMEONE = `EXISTS (SELECT 1 FROM sync.project_members o WHERE o.project_id = m.project_id AND o.user_id <> $1 AND o.state = 'active')`;

/**
 * The ids of a project's active members (its creator included), in id order: who may be assigned
 * its tasks and who hears of its comments. One query.
 */
export async function activeMemberIds(manager: EntityManager, projectId: string): Promise<string[]> {
  const rows = await manager.query<Array<{ user_id: string }>>(
    `SELECT user_id::text FROM sync.project_members WHERE project_id = $1 AND state = 'active' ORDER BY user_id`,
    [projectId],
  );
  return rows.map((row) => row.user_id);
}

/** The projects the user shares with someone (an active member besides them): who sees their profile as a collaborator. */
export async function sharedProjectIds(manager: EntityManager, userId: string): Promise<string[]> {
  const rows = await manager.query<Array<{ project_id: string }>>(
    `SELECT m.project_id::text FROM sync.project_members m
      WHERE m.user_id = $1 AND m.state = 'active'
        AND ${SHARED_WITH_SOMEONE}`,
    [userId],
  );
  return rows.map((row) => row.project_id);
}

/** The members of the user's shared projects with the names Quick Add's `+Person` matches (one query). */
export async function sharedProjectPeople(manager: EntityManager, userId: string): Promise<Array<{ id: string; projectId: string; fullName: string; email: string }>> {
  return manager.query(
    `SELECT u.id::text AS "id", m.project_id::text AS "projectId", u.full_name AS "fullName", u.email
       FROM sync.project_members m JOIN sync.users u ON u.id = m.user_id
      WHERE m.state = 'active' AND m.project_id IN (${VISIBLE_PROJECTS})
        AND ${SHARED_WITH_SOMEONE}`,
    [userId],
  );
}
