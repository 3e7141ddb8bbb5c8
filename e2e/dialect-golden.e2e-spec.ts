import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { syncSession } from './support/sync-session';
import { useSystem } from './support/use-system';

/**
 * The wire shape of every object in each Sync API dialect, as golden files: the keys of each
 * resource object (v9 `collapsed` vs api/v1 `is_collapsed`, and so on). A change of shape must
 * be made on purpose: `UPDATE_GOLDEN=1 npm test -- e2e/dialect-golden` rewrites the files, and
 * the diff shows the change in review.
 */
const CURRENT_READ = { sync_token: '*', resource_types: ['all', 'reminders_location'] };
const DIALECTS = [
  ['sync-v9', '/sync/v9/sync', CURRENT_READ],
  ['sync-api-v1', '/api/v1/sync', CURRENT_READ],
  // v8 has no reminders_location: its reminders carry location reminders too.
  ['sync-v8', '/sync/v8/sync', { sync_token: '*', resource_types: ['all'] }],
  // The old generations write day orders only when asked (day_orders_timestamp); v6 reads by seq_no.
  ['sync-v7', '/API/v7/sync', { ...CURRENT_READ, day_orders_timestamp: '0' }],
  ['sync-v6', '/API/v6/sync', { seq_no: 0, resource_types: ['all'], day_orders_timestamp: '0' }],
] as const;
/** The single objects recorded whole, in each dialect's key names (v6 writes `User`). */
const OBJECT_KEYS = ['user', 'user_settings', 'user_plan_limits', 'User'];

describe('dialect golden shapes (embedded)', () => {
  const { system, account, accounts } = useSystem('embedded', { accounts: 2 });
  const { run, sync } = syncSession(() => system, () => account, 'golden');

  beforeAll(async () => {
    const { statuses } = await run(
      { type: 'project_add', temp_id: 'p', args: { name: 'Golden' } },
      { type: 'section_add', temp_id: 's', args: { name: 'Section', project_id: 'p' } },
      { type: 'label_add', temp_id: 'l', args: { name: 'golden' } },
      { type: 'filter_add', temp_id: 'f', args: { name: 'Golden filter', query: 'today' } },
      { type: 'item_add', temp_id: 'i', args: { content: 'Task', section_id: 's', labels: ['golden'], due: { string: 'tomorrow at 9am' } } },
      { type: 'note_add', temp_id: 'n', args: { item_id: 'i', content: 'Task comment' } },
      { type: 'note_add', temp_id: 'pn', args: { project_id: 'p', content: 'Project comment' } },
      { type: 'reminder_add', temp_id: 'r', args: { item_id: 'i', type: 'relative', minute_offset: 30 } },
      // An absolute one too: its keys differ (api/v1 and v9 carry both due and minute_offset on it).
      { type: 'reminder_add', temp_id: 'ar', args: { item_id: 'i', type: 'absolute', due: { date: '2030-05-01T10:00:00' } } },
      { type: 'reminder_add', temp_id: 'lr', args: { item_id: 'i', type: 'location', name: 'Office', loc_lat: '52.52', loc_long: '13.40', loc_trigger: 'on_enter' } },
      // A workspace with a folder, a project in it and a workspace filter: their objects' keys too.
      { type: 'workspace_add', temp_id: 'w', args: { name: 'Golden team' } },
      { type: 'folder_add', temp_id: 'wf', args: { workspace_id: 'w', name: 'Golden folder' } },
      { type: 'project_add', temp_id: 'wp', args: { name: 'Golden team project', workspace_id: 'w', folder_id: 'wf' } },
      { type: 'workspace_filter_add', temp_id: 'wq', args: { workspace_id: 'w', name: 'Golden team filter', query: 'today' } },
    );
    expect(statuses.every((status) => status === 'ok')).toBe(true);
    // A second member, as sharing leaves the project (membership, project and high-water marks at
    // one fresh version), so collaborators, collaborator states and the shared flag have their keys.
    const [{ id: projectId }] = await system.sql<{ id: string }>(`SELECT id::text FROM sync.projects WHERE owner_id = $1 AND name = 'Golden'`, [account.userId]);
    const [{ version }] = await system.sql<{ version: string }>(`SELECT nextval('sync.change_version')::text AS version`);
    await system.sql(`INSERT INTO sync.project_members (project_id, user_id, role, version) VALUES ($1, $2, 'READ_WRITE', $3)`, [projectId, accounts[1].userId, version]);
    await system.sql(`UPDATE sync.projects SET version = $2 WHERE id = $1`, [projectId, version]);
    await system.sql(`UPDATE sync.users SET high_water = GREATEST(high_water, $1) WHERE id = ANY($2::bigint[])`, [version, [account.userId, accounts[1].userId]]);
  });

  it.each(DIALECTS)('%s objects keep their golden key sets', async (dialect, path, request) => {
    const body = await sync(request, path);
    const shapes: Record<string, string[]> = { envelope: Object.keys(body).sort() };
    for (const [key, value] of Object.entries(body)) {
      if (Array.isArray(value) && value.length > 0 && typeof value[0] === 'object') {
        shapes[key] = [...new Set((value as Array<Record<string, unknown>>).flatMap((row) => Object.keys(row)))].sort();
      } else if (value && typeof value === 'object' && !Array.isArray(value) && OBJECT_KEYS.includes(key)) {
        shapes[key] = Object.keys(value).sort();
      }
    }
    const file = join(__dirname, 'golden', `${dialect}.keys.json`);
    if (process.env['UPDATE_GOLDEN'] === '1') writeFileSync(file, `${JSON.stringify(shapes, null, 2)}\n`);
    expect(existsSync(file)).toBe(true);
    expect(shapes).toEqual(JSON.parse(readFileSync(file, 'utf8')));
  });
});
