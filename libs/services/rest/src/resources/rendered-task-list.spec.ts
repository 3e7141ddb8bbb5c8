import { jsonReply } from '@doable/contracts-common';
import { restV2Task } from '@doable/contracts-rest';
import type { ObjectsReply, ObjectsRequest } from '@doable/contracts-sync';
import type { ServiceClient } from '@doable/shared-transport';
import type { RestCall } from '../call/rest-call';
import { apiTask } from '../../testing/api-task.fixture';
import { SyncObjects } from '../objects/sync-objects.client';
import { type ObjectWriter, ResourceKit } from './resource-kit';

const task = apiTask({ due: { date: '2026-11-22', string: 'tomorrow', is_recurring: false, timezone: null, lang: 'en' } });

const call = { surface: 'rest-v2', operation: 'tasks.list', principal: { userId: '1' }, params: {}, query: {}, body: {}, requestId: null } as unknown as RestCall;

function kitAnswering(reply: Partial<ObjectsReply<'tasks'>>): { kit: ResourceKit; requests: ObjectsRequest[] } {
  const requests: ObjectsRequest[] = [];
  const client = {
    request: (_subject: string, payload: ObjectsRequest) => {
      requests.push(payload);
      return Promise.resolve({ tempIdMapping: {}, objects: [], hasMore: false, ...reply });
    },
  } as unknown as ServiceClient;
  return { kit: new ResourceKit(new SyncObjects(client), 'https://doable.example'), requests };
}

/** What TasksResource passes: the REST v2 dialect's task writer. */
const writeWith = (kit: ResourceKit): ObjectWriter<'tasks' | 'tasks_by_filter'> => (object, reply) => kit.dialect(call).task(object, kit.context(call, reply));

describe('REST v2 task lists', () => {
  it('ask the sync service to write them and pass its text on as the JSON answer', async () => {
    const text = JSON.stringify([restV2Task(task, 'https://doable.example')]);
    const { kit, requests } = kitAnswering({ body: text });
    const reply = await kit.renderedTaskList(call, { resource: 'tasks_by_filter', filter: 'today' }, writeWith(kit));
    expect(requests[0].render).toEqual({ dialect: 'rest-v2', public_url: 'https://doable.example' });
    expect(reply).toEqual(jsonReply(200, JSON.parse(text)));
  });

  it('are written here, to the same bytes, when a sync replica older than `render` answers api/v1 tasks', async () => {
    // As it arrives over the wire: a plain JSON object.
    const { kit } = kitAnswering({ objects: [{ ...task }] });
    const reply = await kit.renderedTaskList(call, { resource: 'tasks', project_id: '2200000001' }, writeWith(kit));
    expect(JSON.stringify(reply.body)).toBe(JSON.stringify([restV2Task(task, 'https://doable.example')]));
  });
});
