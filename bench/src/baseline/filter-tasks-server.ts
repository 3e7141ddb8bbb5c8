// S5's baseline, in a process of its own: the least a server can do to answer
// GET /rest/v2/tasks?filter=today | overdue. Bare node:http and pg, no framework, no broker.
// Per request: look the bearer token up in memory (as the gateway's warm token cache does), one
// SELECT whose WHERE is the filter's equivalent (active tasks in the user's visible, unarchived
// projects, due on or before today in the user's zone), and JSON.stringify of the rows.
//
// Env: DATABASE_URL, POOL_SIZE. Prints `LISTENING <port>`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pool, replyText, serveBaseline, userOfBearer } from './bare-server';

const DUE_TODAY_OR_OVERDUE = `
  SELECT i.id::text, i.project_id::text, i.section_id::text, i.parent_id::text, i.content, i.description, i.priority, i.due, i.deadline,
         i.duration, i.labels, i.child_order, i.checked, i.added_by_uid::text, i.responsible_uid::text, i.assigned_by_uid::text, i.added_at
    FROM sync.items i
   WHERE i.project_id IN (SELECT p.id FROM sync.projects p JOIN sync.project_members m ON m.project_id = p.id
                           WHERE m.user_id = $1 AND NOT p.is_archived AND NOT p.is_deleted)
     AND NOT i.is_deleted AND NOT i.in_history AND NOT i.checked AND i.due IS NOT NULL
     AND left(i.due->>'date', 10) <= to_char((now() AT TIME ZONE (SELECT timezone FROM sync.users WHERE id = $1))::date, 'YYYY-MM-DD')
   ORDER BY i.project_id, i.child_order, i.id`;

async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (request.method !== 'GET' || !request.url?.startsWith('/rest/v2/tasks?')) return replyText(response, 404, '{"error":"not found"}');
  const userId = userOfBearer(request.headers.authorization);
  if (!userId) return replyText(response, 401, '{"error":"unauthorized"}');
  const { rows } = await pool.query(DUE_TODAY_OR_OVERDUE, [userId]);
  replyText(response, 200, JSON.stringify(rows));
}

serveBaseline(answer);
