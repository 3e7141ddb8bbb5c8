import { JSON_MEDIA_TYPE } from '@doable/contracts-common';
import type { RestSurface } from '@doable/contracts-rest';
import type { ObjectsReply, ObjectsRequest } from '@doable/contracts-sync';
import type { ServiceClient } from '@doable/shared-transport';
import type { RestCall } from '../call/rest-call';
import { apiTask } from '../../testing/api-task.fixture';
import { SyncObjects } from '../objects/sync-objects.client';
import { ResourceKit } from './resource-kit';

const PUBLIC_URL = 'https://doable.example';
const task = apiTask({ due: { date: '2026-11-22', string: 'tomorrow', is_recurring: false, timezone: null, lang: 'en' } });
/** What the sync service's REST v2 dialect answers (its JSON text; libs/sync/dialects/src/rest-v2 writes it). */
const RENDERED = '{"id":"6000000001","content":"Buy milk"}';

const callOn = (surface: RestSurface): RestCall => ({ surface, operation: 'tasks.get', principal: { userId: '1', scopes: ['data:read_write'], appId: null, tokenKind: 'personal' }, params: {}, query: {}, body: {}, requestId: null });

/** A kit whose sync service answers `reply` to every request, and the requests it was sent. */
function kitAnswering(reply: Partial<ObjectsReply>): { kit: ResourceKit; requests: ObjectsRequest[] } {
  const requests: ObjectsRequest[] = [];
  const client = {
    request: (_subject: string, payload: ObjectsRequest) => {
      requests.push(payload);
      return Promise.resolve({ tempIdMapping: {}, objects: [], hasMore: false, ...reply });
    },
  } as unknown as ServiceClient;
  return { kit: new ResourceKit(new SyncObjects(client), PUBLIC_URL), requests };
}

const render = { dialect: 'rest-v2', public_url: PUBLIC_URL };

describe('REST v2 answers', () => {
  const call = callOn('rest-v2');

  it('ask the sync service to write them, and pass its text on as the JSON answer', async () => {
    const { kit, requests } = kitAnswering({ body: RENDERED });
    expect(await kit.one(call, { resource: 'task', id: task.id })).toEqual({ status: 200, body: RENDERED, contentType: JSON_MEDIA_TYPE });
    expect(await kit.list(call, { resource: 'tasks_by_filter', filter: 'today' })).toEqual({ status: 200, body: RENDERED, contentType: JSON_MEDIA_TYPE });
    expect(requests.map((request) => [request.query?.resource, request.render])).toEqual([
      ['task', render],
      ['tasks_by_filter', render],
    ]);
  });

  it('ask it with the commands of a create and an update, whose object they answer', async () => {
    const { kit, requests } = kitAnswering({ body: RENDERED });
    expect((await kit.created(call, { type: 'label_add', args: { name: 'a' } }, 'label', (id) => ({ resource: 'label', id }))).body).toBe(RENDERED);
    expect((await kit.updated(call, [{ type: 'label_update', args: { id: '1', name: 'b' } }], { resource: 'label', id: '1' })).body).toBe(RENDERED);
    expect(requests.map((request) => [request.commands.map((command) => command.type), request.render])).toEqual([
      [['label_add'], render],
      [['label_update'], render],
    ]);
  });

  it('pass sync\'s answer on as the bytes it came in, asked for as bytes, never decoded here', async () => {
    const bytes = Buffer.from(RENDERED);
    const options: unknown[] = [];
    const client = {
      request: (_subject: string, _payload: ObjectsRequest, given: unknown) => {
        options.push(given);
        return Promise.resolve({ tempIdMapping: {}, objects: [], hasMore: false, body: bytes });
      },
    } as unknown as ServiceClient;
    const kit = new ResourceKit(new SyncObjects(client), PUBLIC_URL);
    expect((await kit.list(call, { resource: 'tasks_by_filter', filter: 'today' })).body).toBe(bytes);
    expect((await kit.one(call, { resource: 'task', id: task.id })).body).toBe(bytes);
    expect(options).toEqual([{ bodyAs: 'bytes' }, { bodyAs: 'bytes' }]);
  });

  it('fail as the service\'s fault (never as objects written here) when the sync service answers objects instead', async () => {
    const { kit } = kitAnswering({ objects: [{ ...task }] });
    await expect(kit.one(call, { resource: 'task', id: task.id })).rejects.toMatchObject({ code: 'INTERNAL' });
  });
});

describe('the surfaces rest writes', () => {
  it('REST v1: objects written here, updates answered 204 with no read', async () => {
    const { kit, requests } = kitAnswering({ objects: [{ ...task }] });
    const call = callOn('rest-v1');
    expect(await kit.one(call, { resource: 'task', id: task.id })).toMatchObject({ status: 200, body: { id: 6000000001, content: 'Buy milk', url: `${PUBLIC_URL}/app/task/6000000001` } });
    expect(await kit.updated(call, [{ type: 'item_update', args: { id: task.id } }], { resource: 'task', id: task.id })).toEqual({ status: 204, body: null });
    expect(requests.map((request) => [request.query, request.render])).toEqual([
      [{ resource: 'task', id: task.id }, undefined],
      [null, undefined],
    ]);
  });

  it('api/v1: lists paged, objects as sync answered them', async () => {
    const { kit, requests } = kitAnswering({ objects: [{ ...task }], hasMore: false });
    expect(await kit.list(callOn('rest-api-v1'), { resource: 'tasks' })).toEqual({ status: 200, body: { results: [task], next_cursor: null } });
    expect(requests[0]).not.toHaveProperty('render');
  });
});
