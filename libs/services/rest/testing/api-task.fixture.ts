import type { ApiTask } from '@doable/contracts-sync';

/** An api/v1 task as the sync service writes it (a plain Inbox task), for the REST specs to vary. */
export function apiTask(overrides: Partial<ApiTask> = {}): ApiTask {
  return {
    id: '6000000001',
    user_id: '1',
    project_id: '2200000001',
    section_id: null,
    parent_id: null,
    added_by_uid: '1',
    assigned_by_uid: null,
    responsible_uid: null,
    labels: [],
    deadline: null,
    duration: null,
    checked: false,
    is_deleted: false,
    added_at: '2026-11-21T10:00:00.000000Z',
    completed_at: null,
    updated_at: '2026-11-21T10:00:00.000000Z',
    due: null,
    priority: 4,
    child_order: 3,
    content: 'Buy milk',
    description: '',
    note_count: 0,
    day_order: -1,
    is_collapsed: false,
    ...overrides,
  };
}
