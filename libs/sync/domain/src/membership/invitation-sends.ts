import type { EntityManager } from 'typeorm';

/**
 * What one user sent in invitations (project shares and workspace invitations, each one
 * address) within the last `windowSeconds`, and when the oldest of them leaves the window. An
 * invitation's `created_at` is when it was last sent (sending it again renews it), so the
 * invitation tables themselves are the durable, shared count: no replica keeps its own. The
 * sender's rows are locked first (one advisory lock per sender for the transaction), so two
 * batches of one sender count one after the other.
 */
export async function invitationsSentBy(manager: EntityManager, senderId: string, windowSeconds: number): Promise<{ count: number; oldestLeavesInSeconds: number }> {
  await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended('invitation-sender:' || $1::text, 0))`, [senderId]);
  const [row] = await manager.query<Array<{ count: number; leaves: number | null }>>(
    `WITH sent AS (
       SELECT created_at FROM sync.project_invitations WHERE inviter_id = $1 AND created_at > now() - make_interval(secs => $2)
       UNION ALL
       SELECT created_at FROM sync.workspace_invitations WHERE inviter_id = $1 AND created_at > now() - make_interval(secs => $2))
     SELECT count(*)::int AS count, ceil(extract(epoch FROM min(created_at) + make_interval(secs => $2) - now()))::int AS leaves FROM sent`,
    [senderId, windowSeconds],
  );
  return { count: row.count, oldestLeavesInSeconds: Math.max(1, row.leaves ?? 1) };
}

/** Whether the address's open invitation of this kind and scope was sent (made or sent again) within the last `windowSeconds`. */
export async function openInvitationSentWithin(
  manager: EntityManager,
  kind: { readonly table: 'project_invitations' | 'workspace_invitations'; readonly scopeColumn: 'project_id' | 'workspace_id' },
  scopeId: string,
  email: string,
  windowSeconds: number,
): Promise<boolean> {
  const rows = await manager.query<unknown[]>(
    `SELECT 1 FROM sync.${kind.table} WHERE ${kind.scopeColumn} = $1 AND invitee_email = lower($2) AND state = 'invited' AND created_at > now() - make_interval(secs => $3)`,
    [scopeId, email, windowSeconds],
  );
  return rows.length > 0;
}
