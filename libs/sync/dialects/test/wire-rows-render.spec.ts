import type { Filter, Folder, Label, Note, Project, Reminder, Section, Workspace, WorkspaceFilter } from '@doable/sync-domain';
import { SYNC_DIALECTS } from '../src/sync-dialects';
import { errands, inbox, item, project, read, reminder } from '../testing/sync-read.fixture';
import { wireTimestamp } from '../src/shared/wire-format';

/**
 * A full sync reads every resource with its timestamps formatted by PostgreSQL (the
 * *_WIRE_COLUMNS, each source's listActive), as it reads its tasks (wire-item-render.spec.ts).
 * Every generation must write comments, sections, projects, labels, filters, reminders and
 * workspaces (with their folders and filters) from that text exactly as it writes them from the
 * Dates an incremental sync reads.
 */
describe('every resource with wire-text timestamps', () => {
  const at = (iso: string) => new Date(iso);
  const projects: Project[] = [inbox, errands, project({ id: '2203306142', name: 'Later', created_at: at('1999-12-31T23:59:59.999Z'), updated_at: at('2024-02-29T12:00:00.001Z') })];
  const sections: Section[] = [
    { id: '7301', user_id: '42', project_id: errands.id, name: 'Shops', description: null, section_order: 1, is_collapsed: false, is_archived: false, is_deleted: false, archived_at: null, added_at: at('2024-01-02T03:04:05.678Z'), updated_at: at('2024-03-04T05:06:07.089Z'), version: '17' },
    { id: '7302', user_id: '42', project_id: errands.id, name: 'Done', description: 'old', section_order: 2, is_collapsed: true, is_archived: true, is_deleted: false, archived_at: at('2024-04-05T06:07:08.900Z'), added_at: at('2024-01-02T03:04:05.000Z'), updated_at: at('2024-04-05T06:07:08.900Z'), version: '16' },
  ];
  const notes: Note[] = [
    { id: '7401', project_id: inbox.id, item_id: '7001', posted_uid: '42', content: 'on a task', file_attachment: null, uids_to_notify: null, reactions: {}, is_deleted: false, posted_at: at('2024-05-06T07:08:09.010Z'), updated_at: at('2024-05-06T07:08:09.010Z'), version: '17' },
    { id: '7402', project_id: errands.id, item_id: null, posted_uid: '42', content: 'on a project', file_attachment: null, uids_to_notify: ['42'], reactions: { '👍': ['42'] }, is_deleted: false, posted_at: at('2023-01-01T00:00:00.000Z'), updated_at: at('2023-01-02T00:00:00.999Z'), version: '12' },
  ];
  const labels: Label[] = [{ id: '7501', user_id: '42', name: 'Errand', color: 'berry_red', item_order: 1, is_favorite: true, is_deleted: false, created_at: at('2024-01-02T03:04:05.678Z'), updated_at: at('2024-01-03T03:04:05.678Z'), version: '17' }];
  const filters: Filter[] = [{ id: '7601', user_id: '42', name: 'Soon', query: 'due before: +3 days', description: null, color: 'charcoal', item_order: 1, is_favorite: false, is_deleted: false, created_at: at('2024-01-02T03:04:05.678Z'), updated_at: at('2024-01-02T03:04:05.679Z'), version: '17' }];
  const reminders: Reminder[] = [reminder({ project_id: inbox.id, item_id: '7001', added_at: at('2024-06-07T08:09:10.111Z'), updated_at: at('2024-06-07T08:09:10.112Z') })];
  const workspaces: Workspace[] = [
    {
      id: '7701', name: 'Acme', description: '', creator_id: '42', is_link_sharing_enabled: true, is_guest_allowed: true, domain_name: null, domain_discovery: false,
      restrict_email_domains: false, invite_code: 'code', plan_type: 'STARTER', limits: null, is_deleted: false, created_at: at('2024-02-03T04:05:06.007Z'),
      updated_at: at('2024-02-04T04:05:06.007Z'), version: '17', role: 'ADMIN', is_collapsed: false, current_active_projects: 1, admin_count: 1, member_count: 0, guest_count: 0, pending_invitations: [],
    },
  ];
  const folders: Folder[] = [{ id: '7801', workspace_id: '7701', name: 'Team', child_order: 1, default_order: 0, is_deleted: false, created_at: at('2024-02-05T00:00:00.001Z'), updated_at: at('2024-02-05T00:00:00.002Z'), version: '17' }];
  const workspaceFilters: WorkspaceFilter[] = [
    { id: '7901', workspace_id: '7701', name: 'Mine', query: 'assigned to: me', description: null, color: 'charcoal', item_order: 1, is_favorite: false, is_deleted: false, creator_id: '42', updater_id: '42', created_at: at('2024-02-06T01:02:03.456Z'), updated_at: at('2024-02-07T01:02:03.457Z'), version: '17' },
  ];
  const tasks = [item('7001', { labels: ['Errand'] })];

  // What the sources read for a full sync: each timestamp as PostgreSQL formats it (wireTimestampSql).
  const wire = <T extends object>(row: T): T =>
    Object.fromEntries(Object.entries(row).map(([key, value]) => [key, value instanceof Date ? wireTimestamp(value) : value])) as T;
  const types = ['projects', 'items', 'sections', 'notes', 'labels', 'filters', 'reminders', 'workspaces', 'folders', 'workspace_filters'] as const;
  const fullSync = (asWire: boolean) => {
    const rows = { projects, items: tasks, sections, notes, labels, filters, reminders, workspaces, folders, workspace_filters: workspaceFilters };
    const given = asWire ? Object.fromEntries(Object.entries(rows).map(([key, list]) => [key, list.map((row: object) => wire(row))])) : rows;
    return {
      read: { ...read([...types]), rows: given, context: { timezone: 'Europe/Berlin', projectTasks: given['items'], projects: given['projects'], labels: given['labels'] } },
      tempIdMapping: {},
    } as unknown as Parameters<(typeof SYNC_DIALECTS)['sync-v9']['render']>[0];
  };

  it.each(Object.keys(SYNC_DIALECTS) as Array<keyof typeof SYNC_DIALECTS>)('are written by %s exactly as Dates are', (name) => {
    const dialect = SYNC_DIALECTS[name];
    const hasWorkspaces = name === 'sync-v9' || name === 'sync-api-v1';
    const asked = hasWorkspaces ? types : types.filter((type) => !['workspaces', 'folders', 'workspace_filters'].includes(type));
    const request = dialect.parseRequest({ sync_token: '*', seq_no: 0, resource_types: JSON.stringify(asked) }, { userId: '42' });
    const fromDates = JSON.stringify(dialect.render(fullSync(false), request));
    // 7402, the project comment, only where the generation has project comments (not v6 and v7); workspaces only in v9 and api/v1.
    for (const id of ['7301', '7302', '7401', '7501', '7601', '4100000001', '2203306142']) expect(fromDates).toContain(id);
    if (hasWorkspaces) for (const id of ['7701', '7801', '7901']) expect(fromDates).toContain(id);
    expect(JSON.stringify(dialect.render(fullSync(true), request))).toBe(fromDates);
  });
});
