import { Client } from 'pg';
import { timeRounds } from '../stats';

/** A baseline's table, ready and warmed up: `run` times that many rounds (ms each); `close` drops what it made. */
export interface InsertBaseline {
  run(rounds: number): Promise<number[]>;
  close(): Promise<void>;
}

/** Where the fair baseline's tables live in the bench database, beside the product's schemas. */
const SCHEMA = 'bench_fair';

/**
 * S2's fair baseline (issue #31): the same rows made durable the way the product makes them. A
 * logged table built from `sync.items` itself (`LIKE ... INCLUDING ALL`: its columns, defaults,
 * identity, checks and all seven indexes, so it follows the migrations), with foreign keys to
 * a users-like and a projects-like table (copies of `sync.users` and `sync.projects` holding the
 * rows the tasks point at) and to itself for the parent, as `sync.items` has. Per round: one
 * transaction of `commands` single-row INSERTs, one per command as a client's adds are, and one
 * COMMIT, which waits for the WAL flush like the product's. The temp-table baseline
 * (`baselineInsert`) writes no WAL, keeps one index and checks no key; this one does what any
 * server keeping these tasks would have to, and nothing the product's design adds. Its rounds
 * are run in blocks between the product's (see S2), so both meet the same machine.
 */
export async function openLoggedTaskInsert(databaseUrl: string, commands: number, warmupRounds: number): Promise<InsertBaseline> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  const close = async () => {
    await client.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`).catch(() => undefined);
    await client.end();
  };
  try {
    await client.query(`CREATE SCHEMA ${SCHEMA}`);
    await client.query(`CREATE TABLE ${SCHEMA}.users (LIKE sync.users INCLUDING ALL)`);
    await client.query(`CREATE TABLE ${SCHEMA}.projects (LIKE sync.projects INCLUDING ALL)`);
    await client.query(`CREATE TABLE ${SCHEMA}.items (LIKE sync.items INCLUDING ALL)`);
    await client.query(`ALTER TABLE ${SCHEMA}.items
      ADD FOREIGN KEY (user_id) REFERENCES ${SCHEMA}.users (id),
      ADD FOREIGN KEY (project_id) REFERENCES ${SCHEMA}.projects (id),
      ADD FOREIGN KEY (parent_id) REFERENCES ${SCHEMA}.items (id)`);
    // A real user and their inbox, copied with every column: the rows the keys are checked against.
    const { rows } = await client.query<{ id: string; project_id: string }>(
      `WITH user_row AS (INSERT INTO ${SCHEMA}.users SELECT * FROM sync.users ORDER BY id LIMIT 1 RETURNING id)
       INSERT INTO ${SCHEMA}.projects SELECT p.* FROM sync.projects p, user_row WHERE p.owner_id = user_row.id AND p.inbox_project
       RETURNING owner_id AS id, id AS project_id`,
    );
    if (rows.length !== 1) throw new Error('S2 fair baseline: no user with an inbox to copy');
    const { id: userId, project_id: projectId } = rows[0];
    await client.query(`ANALYZE ${SCHEMA}.users, ${SCHEMA}.projects`);
    let version = 0;
    const insertBatch = async () => {
      version++;
      await client.query('BEGIN');
      for (let index = 0; index < commands; index++) {
        await client.query(`INSERT INTO ${SCHEMA}.items (user_id, project_id, content, child_order, added_by_uid, version) VALUES ($1, $2, $3, $4, $1, $5)`, [
          userId,
          projectId,
          `Task ${version}.${index}`,
          index + 1,
          version,
        ]);
      }
      await client.query('COMMIT');
    };
    await timeRounds(warmupRounds, insertBatch);
    return { run: (rounds) => timeRounds(rounds, insertBatch), close };
  } catch (error) {
    await close();
    throw error;
  }
}
