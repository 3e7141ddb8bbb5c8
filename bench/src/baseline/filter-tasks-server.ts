// S5's baseline, in a process of its own: the least a server can do to answer
// GET /rest/v2/tasks?filter=today | overdue. Bare node:http and pg, no framework, no broker.
// Per request: look the bearer token up in memory (as the gateway's warm token cache does), one
// SELECT whose WHERE is the filter's equivalent (active tasks in the user's visible, unarchived
// projects, due on or before today in the user's zone), and JSON.stringify of the rows.
//
// Env: DATABASE_URL, POOL_SIZE. Prints `LISTENING <port>`.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Pool } from 'pg';

const pool = new Pool({ connectionString: process.env['DATABASE_URL'], max: Number(process.env['POOL_SIZE'] ?? 10), application_name: 'bench-baseline' });
const userByTokenHash = new Map<string, string>();

const DUE_TODAY_OR_OVERDUE = `
  SELECT i.id::text, i.project_id::text, i.section_id::text, i.parent_id::text, i.content, i.description, i.priority, i.due, i.deadline,
         i.duration, i.labels, i.child_order, i.checked, i.added_by_uid::text, i.responsible_uid::text, i.assigned_by_uid::text, i.added_at
    FROM sync.items i
   WHERE i.project_id IN (SELECT p.id FROM sync.projects p JOIN sync.project_members m ON m.project_id = p.id
                           WHERE m.user_id = $1 AND NOT p.is_archived AND NOT p.is_deleted)
     AND NOT i.is_deleted AND NOT i.in_history AND NOT i.checked AND i.due IS NOT NULL
     AND left(i.due->>'date', 10) <= to_char((now() AT TIME ZONE (SELECT timezone FROM sync.users WHERE id = $1))::date, 'YYYY-MM-DD')
   ORDER BY i.project_id, i.child_order, i.id`;

function reply(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (request.method !== 'GET' || !request.url?.startsWith('/rest/v2/tasks?')) return reply(response, 404, '{"error":"not found"}');
  const token = /^Bearer ([0-9a-f]{40})$/.exec(request.headers.authorization ?? '')?.[1];
  const userId = token ? userByTokenHash.get(createHash('sha256').update(token, 'utf8').digest('hex')) : undefined;
  if (!userId) return reply(response, 401, '{"error":"unauthorized"}');
  const { rows } = await pool.query(DUE_TODAY_OR_OVERDUE, [userId]);
  reply(response, 200, JSON.stringify(rows));
}

async function main(): Promise<void> {
  const { rows } = await pool.query<{ token_hash: string; user_id: string }>('SELECT token_hash, user_id::text AS user_id FROM auth.access_tokens WHERE revoked_at IS NULL');
  for (const row of rows) userByTokenHash.set(row.token_hash, row.user_id);
  const server = createServer((request, response) => {
    answer(request, response).catch((err: unknown) => reply(response, 500, JSON.stringify({ error: err instanceof Error ? err.message : String(err) })));
  });
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.stdout.write(`LISTENING ${typeof address === 'object' && address ? address.port : 0}\n`);
  });
  process.once('SIGTERM', () => {
    server.close();
    server.closeAllConnections();
    void pool.end().finally(() => process.exit(0));
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`baseline failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
