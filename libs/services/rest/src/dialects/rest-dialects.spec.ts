import type { ApiComment, ApiProject, ApiTask } from '@doable/contracts-sync';
import { apiTask } from '../../testing/api-task.fixture';
import { restApiV1Dialect } from './rest-api-v1.dialect';
import { restV1Dialect } from './rest-v1.dialect';

const context = { publicUrl: 'https://doable.example', labelIds: new Map([['errand', '2100000007']]) };

const task: ApiTask = apiTask({ labels: ['Errand', 'shared-only'], note_count: 2 });

const project: ApiProject = {
  id: '2200000002',
  name: 'Work',
  description: '',
  color: 'blue',
  parent_id: null,
  child_order: 1,
  default_order: 0,
  is_collapsed: false,
  is_favorite: true,
  is_archived: false,
  is_deleted: false,
  is_frozen: false,
  is_shared: false,
  can_assign_tasks: false,
  view_style: 'list',
  created_at: null,
  updated_at: null,
  note_count: 1,
};

describe('REST dialects', () => {
  it('REST v1: integer ids and colours, section_id and parent_id 0, label ids, and optional keys left out rather than null', () => {
    const written = restV1Dialect.task(task, context);
    expect(written).toMatchObject({ id: 6000000001, project_id: 2200000001, section_id: 0, parent_id: 0, label_ids: [2100000007], completed: false, comment_count: 2, order: 3 });
    for (const key of ['parent', 'due', 'assignee']) expect(written).not.toHaveProperty(key);
    expect(restV1Dialect.task({ ...task, parent_id: '6000000000' }, context)).toMatchObject({ parent_id: 6000000000, parent: 6000000000 });
    const projectV1 = restV1Dialect.project(project, context);
    expect(projectV1).toMatchObject({ id: 2200000002, color: 41, favorite: true, shared: false, sync_id: 0, comment_count: 1 });
    expect(projectV1).not.toHaveProperty('inbox_project');
    expect(restV1Dialect.project({ ...project, inbox_project: true, parent_id: '2200000001' }, context)).toMatchObject({ inbox_project: true, parent_id: 2200000001, parent: 2200000001 });
    // a shared project's sync_id matches it across members' accounts: its one id here
    expect(restV1Dialect.project({ ...project, is_shared: true }, context)).toMatchObject({ shared: true, sync_id: 2200000002 });
  });

  it('comments name exactly one parent: v1 and api/v1 without the other key (REST v2, the sync service\'s, with it null)', () => {
    const onTask: ApiComment = { id: '3100000001', item_id: '6000000001', posted_uid: '1', content: 'hi', file_attachment: null, uids_to_notify: null, reactions: null, is_deleted: false, posted_at: '2026-11-21T10:00:00.000000Z' };
    const v1 = restV1Dialect.comment(onTask);
    expect(v1).toEqual({ id: 3100000001, content: 'hi', posted: '2026-11-21T10:00:00.000000Z', task_id: 6000000001 });
    expect(restApiV1Dialect.comment(onTask)).not.toHaveProperty('project_id');
  });

  it('api/v1 passes tasks through and keeps the comment counter off projects', () => {
    expect(restApiV1Dialect.task(task, context)).toEqual(task);
    expect(restApiV1Dialect.project(project, context)).not.toHaveProperty('note_count');
  });
});
