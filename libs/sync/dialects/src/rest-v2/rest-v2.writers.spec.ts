import { restOperationContract } from '@doable/contracts-rest';
import { apiObjectSamples } from '@doable/contracts-sync/testing';
import type { ApiComment, ApiTask } from '@doable/contracts-sync';
import type { z } from 'zod';
import { restV2Task } from './rest-v2-task.writer';
import { restV2Collaborator, restV2Comment, restV2Label, restV2Project, restV2Section } from './rest-v2.writers';

const PUBLIC_URL = 'https://doable.example';

const { task, project, section, label, comment, collaborator } = apiObjectSamples;

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
