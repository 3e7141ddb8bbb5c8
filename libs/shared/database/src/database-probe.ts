import { Client } from 'pg';

/**
 * One connection and `SELECT 1` against the service's database, then closed: whether a
 * service starting now could open its pool. Rejects with the driver's error (its message names
 * host and port, never the password).
 */
export async function probeDatabase(url: string, timeoutMs = 5_000): Promise<void> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: timeoutMs, application_name: 'doable-start-probe' });
  // An error after connect (the server going away mid-probe) must not become an uncaught 'error' event.
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}
