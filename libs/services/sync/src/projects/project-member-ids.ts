import type { EntityManager } from 'typeorm';

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
        AND EXISTS (SELECT 1 FROM sync.project_members o WHERE o.project_id = m.project_id AND o.user_id <> $1 AND o.state = 'active')`,
    [userId],
  );
  return rows.map((row) => row.project_id);
}
