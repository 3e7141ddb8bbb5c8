import type { Collaboration } from '@doable/sync-domain';
import { SYNC_DIALECTS } from '../src/sync-dialects';
import { project, read } from '../testing/sync-read.fixture';

const collaboration: Collaboration = {
  collaborators: [
    { id: '42', email: 'ada@example.com', full_name: 'Ada Lovelace', timezone: 'Europe/Berlin', image_id: null },
    { id: '43', email: 'bob@example.com', full_name: 'Bob', timezone: 'UTC', image_id: null },
  ],
  states: [
    { project_id: '2203306141', user_id: '42', state: 'active', is_deleted: false, role: 'CREATOR' },
    { project_id: '2203306141', user_id: '43', state: 'invited', is_deleted: false, role: 'READ_WRITE' },
    { project_id: '2203306142', user_id: '43', state: 'active', is_deleted: true, role: 'ADMIN' },
  ],
};

const render = (name: keyof typeof SYNC_DIALECTS) =>
  SYNC_DIALECTS[name].render({ read: read(['collaborators'], { fullSync: false, rows: { collaborators: [collaboration] } }), tempIdMapping: {} });

describe('the collaborators resource in each generation', () => {
  it.each(['sync-api-v1', 'sync-v9'] as const)('%s writes string ids, active|invited states and departures as is_deleted', (name) => {
    const body = render(name);
    expect(body['collaborators']).toEqual([
      { id: '42', email: 'ada@example.com', full_name: 'Ada Lovelace', timezone: 'Europe/Berlin', image_id: null },
      { id: '43', email: 'bob@example.com', full_name: 'Bob', timezone: 'UTC', image_id: null },
    ]);
    expect(body['collaborator_states']).toEqual([
      { project_id: '2203306141', user_id: '42', state: 'active', is_deleted: false, role: 'CREATOR' },
      { project_id: '2203306141', user_id: '43', state: 'invited', is_deleted: false, role: 'READ_WRITE' },
      { project_id: '2203306142', user_id: '43', state: 'active', is_deleted: true, role: 'ADMIN' },
    ]);
  });

  it.each(['sync-v8', 'sync-v7'] as const)('%s writes integer ids and a departure as state deleted', (name) => {
    const body = render(name);
    expect(body['collaborators']).toEqual([
      { id: 42, email: 'ada@example.com', full_name: 'Ada Lovelace', timezone: 'Europe/Berlin', image_id: null },
      { id: 43, email: 'bob@example.com', full_name: 'Bob', timezone: 'UTC', image_id: null },
    ]);
    expect(body['collaborator_states']).toEqual([
      { project_id: 2203306141, user_id: 42, state: 'active', is_deleted: false },
      { project_id: 2203306141, user_id: 43, state: 'invited', is_deleted: false },
      { project_id: 2203306142, user_id: 43, state: 'deleted', is_deleted: true },
    ]);
  });

  it('sync-v6 writes them under its CamelCase keys', () => {
    const body = render('sync-v6');
    expect(body['Collaborators']).toEqual(render('sync-v7')['collaborators']);
    expect(body['CollaboratorStates']).toEqual(render('sync-v7')['collaborator_states']);
  });

  it.each(['sync-api-v1', 'sync-v9', 'sync-v8', 'sync-v7'] as const)('%s writes both keys empty when nothing changed', (name) => {
    const body = SYNC_DIALECTS[name].render({ read: read(['collaborators'], { fullSync: false, rows: { collaborators: [] } }), tempIdMapping: {} });
    expect(body['collaborators']).toEqual([]);
    expect(body['collaborator_states']).toEqual([]);
  });
});

describe("a project's shared flag in each generation", () => {
  it.each([
    ['sync-api-v1', 'is_shared'],
    ['sync-v9', 'shared'],
    ['sync-v8', 'shared'],
    ['sync-v7', 'shared'],
  ] as const)('%s writes it as %s', (name, key) => {
    const projects = [project({ id: '2203306141', shared: true }), project({ id: '2203306142', shared: false })];
    const body = SYNC_DIALECTS[name].render({ read: read(['projects'], { projects }), tempIdMapping: {} });
    expect((body['projects'] as Array<Record<string, unknown>>).map((row) => row[key])).toEqual([true, false]);
  });
});
