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
