import { Client } from 'pg';

export interface LargeAccountSize {
  readonly projects: number;
  readonly sectionsPerProject: number;
  readonly tasks: number;
  readonly notes: number;
  readonly labels: number;
}

/** The sync-engine issue's acceptance account (and benchmark S3's). */
export const ISSUE_SIZE: LargeAccountSize = { projects: 100, sectionsPerProject: 3, tasks: 5_000, notes: 2_000, labels: 200 };

/**
 * Fills an existing user's account with a large, realistic data set in a few set-based
 * statements (seconds, not minutes): projects, sections, personal labels, tasks spread over
 * them (some in sections, some with due dates, priorities and labels, some subtasks) and
 * comments on tasks. Everything gets one
 * change version and the user's high-water mark moves to it, exactly as commands would leave it.
 * For tests and benchmarks; it writes the sync schema directly, so it lives beside it.
 */
export async function seedLargeAccount(databaseUrl: string, userId: string, size: LargeAccountSize = ISSUE_SIZE): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('BEGIN');
    const {
      rows: [{ version }],
    } = await client.query<{ version: string }>(`SELECT nextval('sync.change_version')::text AS version`);
    const { rows: projects } = await client.query<{ id: string }>(
      `INSERT INTO sync.projects (owner_id, name, color, child_order, version)
       SELECT $1, 'Project ' || n, (ARRAY['red','blue','green','grape','teal','charcoal'])[1 + n % 6], n, $2
         FROM generate_series(1, $3::int) AS n RETURNING id::text`,
      [userId, version, size.projects],
    );
    const projectIds = projects.map((row) => row.id);
    await client.query(`INSERT INTO sync.project_members (project_id, user_id) SELECT unnest($1::bigint[]), $2`, [projectIds, userId]);
    const { rows: sections } = await client.query<{ id: string; project_id: string }>(
      `INSERT INTO sync.sections (user_id, project_id, name, section_order, version)
       SELECT $1, p, 'Section ' || s, s, $2 FROM unnest($3::bigint[]) AS p, generate_series(1, $4::int) AS s
       RETURNING id::text, project_id::text`,
      [userId, version, projectIds, size.sectionsPerProject],
    );
    // Three tasks in four sit in a section (and so in its project); the rest at a project's root.
    // Every tenth task is placed with the task before it (`home`), whose subtask it becomes below.
    await client.query(
      `INSERT INTO sync.items (user_id, project_id, section_id, content, description, priority, due, labels, child_order, added_by_uid, version)
       SELECT $1,
              CASE WHEN home % 4 = 0 OR cardinality($4::bigint[]) = 0 THEN ($3::bigint[])[1 + home % cardinality($3::bigint[])] ELSE ($5::bigint[])[1 + home % cardinality($5::bigint[])] END,
              CASE WHEN home % 4 = 0 OR cardinality($4::bigint[]) = 0 THEN NULL ELSE ($4::bigint[])[1 + home % cardinality($4::bigint[])] END,
              'Task ' || n, CASE WHEN n % 5 = 0 THEN 'Details of task ' || n ELSE '' END,
              1 + n % 4,
              CASE WHEN n % 3 = 0 THEN jsonb_build_object('date', to_char(current_date + (n % 30), 'YYYY-MM-DD'), 'timezone', NULL, 'string', 'in ' || (n % 30) || ' days', 'lang', 'en', 'is_recurring', false) END,
              CASE WHEN n % 2 = 0 AND $7::int > 0 THEN ARRAY['label-' || (n % $7::int)] ELSE ARRAY[]::text[] END,
              n, $1, $2
         FROM generate_series(1, $6::int) AS n, LATERAL (SELECT CASE WHEN n % 10 = 0 THEN n - 1 ELSE n END AS home) placed`,
      [userId, version, projectIds, sections.map((row) => row.id), sections.map((row) => row.project_id), size.tasks, size.labels],
    );
    await client.query(
      `INSERT INTO sync.labels (user_id, name, color, item_order, version)
       SELECT $1, 'label-' || n, (ARRAY['red','blue','green','grape','teal','charcoal'])[1 + n % 6], n, $2 FROM generate_series(0, $3::int - 1) AS n`,
      [userId, version, size.labels],
    );
    // Comments on the first tasks of the seed, one each.
    await client.query(
      `INSERT INTO sync.notes (project_id, item_id, posted_uid, content, version)
       SELECT project_id, id, $1, 'Comment on ' || content, $2 FROM sync.items
        WHERE user_id = $1 AND version = $2 ORDER BY child_order LIMIT $3`,
      [userId, version, size.notes],
    );
    // Fresh statistics, or the planner picks a nested loop over the just-filled table (19 s for 50,000 tasks).
    await client.query('ANALYZE sync.items');
    // Every tenth task becomes a subtask of the task before it (placed in the same project and section).
    await client.query(
      `UPDATE sync.items child SET parent_id = parent.id
         FROM sync.items parent
        WHERE child.user_id = $1 AND parent.user_id = $1 AND child.version = $2 AND parent.version = $2
          AND child.child_order % 10 = 0 AND parent.child_order = child.child_order - 1
          AND parent.project_id = child.project_id AND parent.section_id IS NOT DISTINCT FROM child.section_id`,
      [userId, version],
    );
    await client.query(`UPDATE sync.users SET high_water = GREATEST(high_water, $2) WHERE id = $1`, [userId, version]);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    await client.end();
  }
}
