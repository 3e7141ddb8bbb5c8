import type { EdgeReply, Principal } from '@doable/contracts-common';
import type { BlobStore } from '@doable/shared-storage';
import type { ServiceClient } from '@doable/shared-transport';
import { DomainCalls } from './domain-calls';

const principal: Principal = { userId: '1', scopes: ['data:read_write'], appId: null, tokenKind: 'personal' };

/** An api/v1 task as the Sync API writes it (every key of the contract's TaskApiV1). */
const task = {
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
  priority: 1,
  child_order: 1,
  content: 'Buy milk',
  description: '',
  note_count: 0,
  day_order: -1,
  is_collapsed: false,
};

/** DomainCalls over a sync service answering `body` (as the Sync API's JSON text) to every request. */
function callsAnswering(body: unknown): DomainCalls {
  const reply: EdgeReply = { status: 200, body: JSON.stringify(body), contentType: 'application/json; charset=utf-8' };
  const services = { request: () => Promise.resolve(reply) } as unknown as ServiceClient;
  return new DomainCalls(services, principal, undefined, {} as BlobStore);
}

describe('DomainCalls.sync: a Sync API answer read through the contract', () => {
  it('types the lists, completed_info and the outcomes it holds', async () => {
    const answer = {
      full_sync: true,
      sync_token: 'abc',
      items: [task],
      filters: [{ id: '4000000001', name: 'Work', query: '#Work', is_deleted: false }],
      completed_info: [
        { project_id: '2200000001', completed_items: 2, archived_sections: 0 },
        { section_id: '9000000001', id: '9000000001', completed_items: 1 },
      ],
      sync_status: {},
      temp_id_mapping: {},
    };
    const read = await callsAnswering(answer).read(['items', 'filters', 'completed_info']);
    expect(read.items?.[0]).toEqual(task);
    expect(read.filters?.[0]).toMatchObject({ id: '4000000001', query: '#Work' });
    expect(read.completed_info).toHaveLength(2);
  });

  it('answers each command its outcome and the temp ids', async () => {
    const calls = callsAnswering({ sync_status: {}, temp_id_mapping: { t1: '6000000002' } });
    const { outcomes, tempIds } = await calls.sync([{ type: 'item_add', args: { content: 'x' }, temp_id: 't1' }]);
    // The fake answers no status for the command's uuid (made inside sync()): UNKNOWN, as a batch never reached.
    expect(outcomes).toEqual([{ ok: false, tag: 'UNKNOWN', error: 'The command was not run' }]);
    expect(tempIds).toEqual({ t1: '6000000002' });
  });

  it.each([
    ['a task missing a key', { items: [{ ...task, content: undefined }] }, 'items.0.content'],
    ['a task with a key the contract does not know', { items: [{ ...task, surprise: 1 }] }, 'items.0'],
    ['a completed_info entry of no known kind', { completed_info: [{ completed_items: 1 }] }, 'completed_info.0'],
    ['a temp id mapped to a number', { temp_id_mapping: { t1: 6 } }, 'temp_id_mapping.t1'],
  ])('refuses %s as the answering service\'s fault (INTERNAL, naming where)', async (_name, answer, path) => {
    await expect(callsAnswering(answer).read(['items'])).rejects.toMatchObject({ code: 'INTERNAL', message: expect.stringContaining(`(at ${path})`) });
  });
});
