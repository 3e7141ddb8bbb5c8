import type { ApiCollaborator, ApiComment, ApiLabel, ApiProject, ApiSection, ApiTask } from '../src/index';

/**
 * api/v1 objects with every field filled in, as the sync service writes them: what the REST
 * writers of each surface (rest's api/v1 REST, sync's REST v2 dialect) are checked against.
 */
export const task: ApiTask = {
  id: '6000000001',
  user_id: '1',
  project_id: '2200000001',
  section_id: '9000000001',
  parent_id: '6000000000',
  added_by_uid: '1',
  assigned_by_uid: '1',
  responsible_uid: '2',
  labels: ['errand'],
  deadline: { date: '2031-05-01', lang: 'en' },
  duration: { amount: 30, unit: 'minute' },
  checked: false,
  is_deleted: false,
  added_at: '2026-11-21T10:00:00.000000Z',
  completed_at: null,
  updated_at: '2026-11-21T10:00:00.000000Z',
  due: { date: '2026-11-22T09:00:00Z', string: 'tomorrow at 10', is_recurring: false, timezone: 'Europe/Berlin', lang: 'en' },
  priority: 4,
  child_order: 3,
  content: 'Buy milk',
  description: 'two litres',
  note_count: 2,
  day_order: -1,
  is_collapsed: false,
};

export const project: ApiProject = {
  id: '2200000002',
  name: 'Work',
  description: 'd',
  color: 'blue',
  parent_id: '2200000001',
  child_order: 1,
  default_order: 0,
  is_collapsed: false,
  is_favorite: true,
  is_archived: false,
  is_deleted: false,
  is_frozen: false,
  is_shared: true,
  can_assign_tasks: true,
  view_style: 'list',
  created_at: '2026-11-21T10:00:00.000000Z',
  updated_at: '2026-11-21T10:00:00.000000Z',
  inbox_project: true,
  note_count: 1,
};

export const section: ApiSection = {
  id: '9000000001',
  user_id: '1',
  project_id: '2200000001',
  name: 'Now',
  description: null,
  section_order: 1,
  is_collapsed: false,
  is_archived: true,
  is_deleted: false,
  archived_at: '2026-11-21T10:00:00.000000Z',
  added_at: '2026-11-21T10:00:00.000000Z',
  updated_at: '2026-11-21T10:00:00.000000Z',
};

export const label: ApiLabel = { id: '2100000001', name: 'errand', color: 'red', item_order: 3, is_deleted: false, is_favorite: true, order: 3 };
export const comment: ApiComment = {
  id: '7000000001',
  item_id: '6000000001',
  posted_uid: '1',
  content: 'see file',
  file_attachment: { resource_type: 'file', file_name: 'a.pdf', file_type: 'application/pdf', file_url: 'https://doable.example/files/a.pdf', file_size: 3 },
  uids_to_notify: ['2'],
  reactions: { '👍': ['2'] },
  is_deleted: false,
  posted_at: '2026-11-21T10:00:00.000000Z',
};
export const collaborator: ApiCollaborator = { id: '2', name: 'Ada', email: 'ada@example.com' };
