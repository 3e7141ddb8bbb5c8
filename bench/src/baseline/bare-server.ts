// What both baseline servers share: a pg pool, bearer tokens checked in memory (as the gateway's
// warm token cache does), and a bare node:http server that prints `LISTENING <port>` and stops on
// SIGTERM. Each baseline keeps only the answer that is its own.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Pool } from 'pg';

export const pool = new Pool({ connectionString: process.env['DATABASE_URL'], max: Number(process.env['POOL_SIZE'] ?? 10), application_name: 'bench-baseline' });

const userByTokenHash = new Map<string, string>();

/** The user a `Bearer <40 hex>` header belongs to, from the tokens loaded at start. */
export function userOfBearer(authorization: string | undefined): string | undefined {
  const token = /^Bearer ([0-9a-f]{40})$/.exec(authorization ?? '')?.[1];
  return token ? userByTokenHash.get(createHash('sha256').update(token, 'utf8').digest('hex')) : undefined;
}

/** Writes a JSON text as it is. */
export function replyText(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

/** Loads the live tokens once: both reference servers check bearer tokens in memory. */
export async function loadTokens(): Promise<void> {
  const { rows } = await pool.query<{ token_hash: string; user_id: string }>('SELECT token_hash, user_id::text AS user_id FROM auth.access_tokens WHERE revoked_at IS NULL');
  for (const row of rows) userByTokenHash.set(row.token_hash, row.user_id);
}

/** Prints the port the bench waits for, and closes the server and the pool on SIGTERM. */
export function announce(port: number, close: () => Promise<void>): void {
  process.stdout.write(`LISTENING ${port}\n`);
  process.once('SIGTERM', () => {
    void close()
      .then(() => pool.end())
      .finally(() => process.exit(0));
  });
}

/** Ends the process with the reason a reference server could not start. */
export function failedToStart(err: unknown): never {
  process.stderr.write(`baseline failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
}

/** Loads the tokens, then serves `answer` with bare node:http on a free port until SIGTERM. */
export function serveBaseline(answer: (request: IncomingMessage, response: ServerResponse) => Promise<void>): void {
  const start = async (): Promise<void> => {
    await loadTokens();
    const server = createServer((request, response) => {
      answer(request, response).catch((err: unknown) => replyText(response, 500, JSON.stringify({ error: err instanceof Error ? err.message : String(err) })));
    });
    server.keepAliveTimeout = 65_000;
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      announce(typeof address === 'object' && address ? address.port : 0, () => {
        server.closeAllConnections();
        return new Promise((done) => server.close(() => done()));
      });
    });
  };
  start().catch(failedToStart);
}
