import type { Database } from '../service/database';

const CHECK_TIMEOUT_MS = 2_000;

/** Whether the database answers `SELECT 1` within 2 s: readiness and the dependency gauge ask the same. */
export async function databaseAnswers(database: Database): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS)));
  const probe = database
    .query('SELECT 1')
    .then(() => true)
    .catch(() => false);
  try {
    return await Promise.race([probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
