import { restOperationContract } from '@doable/contracts-rest';
import type { ApiCollaborator, ApiComment, ApiLabel, ApiProject, ApiSection, ApiTask } from '@doable/contracts-sync';
import type { z } from 'zod';
import { restV2Task } from './rest-v2-task.writer';
import { restV2Collaborator, restV2Comment, restV2Label, restV2Project, restV2Section } from './rest-v2.writers';

const PUBLIC_URL = 'https://doable.example';

/** Every field filled in (nullable ones set), as the sync service writes api/v1 objects. */
const task: ApiTask = {
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

const project: ApiProject = {
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

const section: ApiSection = {
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

const label: ApiLabel = { id: '2100000001', name: 'errand', color: 'red', item_order: 3, is_deleted: false, is_favorite: true, order: 3 };
const comment: ApiComment = {
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
const collaborator: ApiCollaborator = { id: '2', name: 'Ada', email: 'ada@example.com' };

function responseOf(operation: string): z.ZodType {
  const response = restOperationContract(operation, 'rest-v2')?.response;
  if (!response) throw new Error(`${operation} on REST v2 answers no body`);
  return response;
}

describe('the REST v2 writers against the contract the OpenAPI document is generated from', () => {
  it.each([
    ['tasks.get', () => restV2Task(task, PUBLIC_URL)],
    ['tasks.get', () => restV2Task({ ...task, due: null, deadline: null, duration: null, section_id: null, parent_id: null, responsible_uid: null }, PUBLIC_URL)],
    ['projects.get', () => restV2Project(project, PUBLIC_URL)],
    ['sections.get', () => restV2Section(section)],
    ['labels.get', () => restV2Label(label)],
    ['comments.get', () => restV2Comment(comment)],
    ['projects.collaborators', () => [restV2Collaborator(collaborator)]],
  ] as const)('%s: a fully populated object parses', (operation, write) => {
    expect(responseOf(operation).safeParse(write()).error?.issues).toBeUndefined();
  });

  it('an object with a key the contract does not know fails (the contract is strict)', () => {
    expect(responseOf('labels.get').safeParse({ ...restV2Label(label), surprise: 1 }).success).toBe(false);
  });
});

describe('the REST v2 writers', () => {
  it('string ids, nulls for what is absent, is_ booleans, url', () => {
    const plain: ApiTask = { ...task, section_id: null, parent_id: null, responsible_uid: null, due: null, labels: ['Errand', 'shared-only'] };
    expect(restV2Task(plain, PUBLIC_URL)).toMatchObject({
      id: '6000000001',
      section_id: null,
      parent_id: null,
      is_completed: false,
      labels: ['Errand', 'shared-only'],
      due: null,
      creator_id: '1',
      assignee_id: null,
      url: 'https://doable.example/app/task/6000000001',
    });
    expect(restV2Task({ ...plain, added_by_uid: null }, PUBLIC_URL)).toMatchObject({ creator_id: '1' });
    expect(restV2Project({ ...project, inbox_project: undefined }, PUBLIC_URL)).toMatchObject({
      id: '2200000002',
      is_favorite: true,
      is_inbox_project: false,
      is_team_inbox: false,
      order: 1,
      url: 'https://doable.example/app/project/2200000002',
    });
  });

  it('comments name exactly one parent, the other null', () => {
    expect(restV2Comment({ ...comment, file_attachment: null })).toMatchObject({ task_id: '6000000001', project_id: null, attachment: null });
    const onProject: ApiComment = { ...comment, item_id: undefined, project_id: '2200000001' };
    expect(restV2Comment(onProject)).toMatchObject({ task_id: null, project_id: '2200000001' });
  });

  it("a project's and a label's missing counters and orders are 0", () => {
    expect(restV2Project({ ...project, note_count: undefined }, PUBLIC_URL).comment_count).toBe(0);
    expect(restV2Label({ ...label, order: null }).order).toBe(0);
  });
});
