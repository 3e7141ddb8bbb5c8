// What S1's two reference servers answer, whatever serves them: a no-change incremental sync for
// a user the bearer token names, from one primary-key query. Kept in one place so the bare
// node:http baseline and the framework floor (Nest + Express) do exactly the same work.
import { pool, userOfBearer } from './bare-server';

const template = JSON.parse(process.env['TEMPLATE'] ?? '{}') as Record<string, unknown>;

export interface NoChangeReply {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** The sync token a request carries, from its JSON or form body (already parsed or as text). */
export function syncTokenOf(contentType: string | undefined, body: unknown): string | undefined {
  const parsed: unknown = typeof body !== 'string' ? body : contentType?.startsWith('application/json') ? JSON.parse(body) : Object.fromEntries(new URLSearchParams(body));
  const value = (parsed as { sync_token?: unknown } | undefined)?.sync_token;
  return typeof value === 'string' ? value : undefined;
}

/** The answer the product gives a poll with nothing new, or the refusal. */
export async function noChangeSync(authorization: string | undefined, syncToken: string | undefined): Promise<NoChangeReply> {
  const userId = userOfBearer(authorization);
  if (!userId) return { status: 401, body: { error: 'unauthorized' } };
  // The product's token is base64url("d1:<user>:<version>:<notification cursor>").
  const [, owner, , cursor] = Buffer.from(syncToken ?? '', 'base64url').toString('utf8').split(':');
  if (owner !== userId || cursor === undefined) return { status: 400, body: { error: 'invalid sync token' } };
  const { rows } = await pool.query<{ high_water: string }>('SELECT high_water::text AS high_water FROM sync.users WHERE id = $1', [userId]);
  if (!rows[0]) return { status: 404, body: { error: 'user not found' } };
  return { status: 200, body: { ...template, sync_token: Buffer.from(`d1:${userId}:${rows[0].high_water}:${cursor}`, 'utf8').toString('base64url') } };
}
