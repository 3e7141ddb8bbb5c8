import { syncSession } from './support/sync-session';
import { MODES } from './support/system-view';
import { useSystem } from './support/use-system';

/** Keys the SDK's sync schemas require (client-schemas.md, @doist/todoist-sdk sync response), with their JSON types. */
const V1_LABEL_KEYS = { id: 'string', name: 'string', color: 'string', order: 'number', is_favorite: 'boolean', is_deleted: 'boolean' };
const V9_LABEL_KEYS = { id: 'string', name: 'string', color: 'string', item_order: 'number', is_favorite: 'boolean', is_deleted: 'boolean' };
const FILTER_KEYS = { id: 'string', name: 'string', query: 'string', color: 'string', item_order: 'number', is_deleted: 'boolean', is_favorite: 'boolean', is_frozen: 'boolean' };

function expectKeys(object: Record<string, unknown>, keys: Record<string, string>): void {
  for (const [key, type] of Object.entries(keys)) expect([key, typeof object[key]]).toEqual([key, type]);
}

describe.each(MODES)('labels and filters (%s)', (mode) => {
  const { system, accounts: [account, other] } = useSystem(mode, { accounts: 2 });

  const { sync, run } = syncSession(() => system, () => account, 'lf');
  const otherSession = syncSession(() => system, () => other, 'lf-other');
  const read = (token = '*', path = '/api/v1/sync') => sync({ sync_token: token, resource_types: ['labels', 'filters', 'items'] }, path);
  const byId = (objects: any[], id: string) => objects.find((object) => object.id === id);
  const labelsOf = (body: any, id: string) => byId(body.items, id)?.labels;

  describe('labels', () => {
    it('adds a label by temp id, with every key the SDK requires in both dialects', async () => {
      const { statuses, mapping } = await run(
        { type: 'label_add', temp_id: 'l1', args: { name: 'Errand', color: 'berry_red', is_favorite: true } },
        { type: 'label_add', temp_id: 'l2', args: { name: 'Waiting', item_order: 7 } },
      );
      expect(statuses).toEqual(['ok', 'ok']);
      expect(mapping['l1']).toMatch(/^\d+$/);
      const v1 = await read();
      const errand = byId(v1.labels, mapping['l1']);
      expect(errand).toMatchObject({ name: 'Errand', color: 'berry_red', is_favorite: true, is_deleted: false });
      expectKeys(errand, V1_LABEL_KEYS);
      expect(byId(v1.labels, mapping['l2'])).toMatchObject({ name: 'Waiting', color: 'charcoal', order: 7, is_favorite: false });
      const v9 = await read('*', '/sync/v9/sync');
      const errandV9 = byId(v9.labels, mapping['l1']);
      expectKeys(errandV9, V9_LABEL_KEYS);
      expect(errandV9).not.toHaveProperty('order');
      expect(byId(v9.labels, mapping['l2'])).toMatchObject({ item_order: 7 });
    });

    it('updates and reorders labels; an incremental sync carries only what changed', async () => {
      const { mapping } = await run(
        { type: 'label_add', temp_id: 'a', args: { name: 'Alpha' } },
        { type: 'label_add', temp_id: 'b', args: { name: 'Beta' } },
        { type: 'label_add', temp_id: 'c', args: { name: 'Gamma' } },
      );
      const token = (await read()).sync_token;
      const { statuses } = await run(
        { type: 'label_update', args: { id: mapping['a'], color: 'teal', is_favorite: 1 } },
        { type: 'label_update_orders', args: { id_order_mapping: { [mapping['a']]: 3, [mapping['b']]: 1 } } },
      );
      expect(statuses).toEqual(['ok', 'ok']);
      const changes = await read(token);
      expect(changes.full_sync).toBe(false);
      expect(changes.labels.map((label: any) => label.id).sort()).toEqual([mapping['a'], mapping['b']].sort());
      expect(byId(changes.labels, mapping['a'])).toMatchObject({ color: 'teal', is_favorite: true, order: 3 });
      expect(byId(changes.labels, mapping['b'])).toMatchObject({ order: 1 });
      expect(changes.items).toEqual([]);
    });

    it('renaming a label through label_update renames it on the tasks and stamps them', async () => {
      const { mapping } = await run(
        { type: 'label_add', temp_id: 'l', args: { name: 'home' } },
        { type: 'item_add', temp_id: 't1', args: { content: 'Sweep', labels: ['urgent', 'home', 'later'] } },
        { type: 'item_add', temp_id: 't2', args: { content: 'Unrelated', labels: ['urgent'] } },
      );
      const token = (await read()).sync_token;
      expect((await run({ type: 'label_update', args: { id: mapping['l'], name: 'House' } })).statuses).toEqual(['ok']);
      const changes = await read(token);
      expect(byId(changes.labels, mapping['l'])).toMatchObject({ name: 'House' });
      expect(labelsOf(changes, mapping['t1'])).toEqual(['urgent', 'House', 'later']);
      expect(byId(changes.items, mapping['t2'])).toBeUndefined();
    });

    it('label_delete with the default cascade takes the name off tasks and leaves a tombstone', async () => {
      const { mapping } = await run(
        { type: 'label_add', temp_id: 'l', args: { name: 'Doomed' } },
        { type: 'item_add', temp_id: 't', args: { content: 'Tagged', labels: ['Doomed', 'kept'] } },
      );
      const token = (await read()).sync_token;
      expect((await run({ type: 'label_delete', args: { id: mapping['l'] } })).statuses).toEqual(['ok']);
      const changes = await read(token);
      const tombstone = byId(changes.labels, mapping['l']);
      expect(tombstone).toMatchObject({ id: mapping['l'], name: 'Doomed', is_deleted: true });
      expectKeys(tombstone, V1_LABEL_KEYS);
      expect(labelsOf(changes, mapping['t'])).toEqual(['kept']);
      const after = await read();
      expect(byId(after.labels, mapping['l'])).toBeUndefined();
      // The name is free again once the label is deleted.
      expect((await run({ type: 'label_add', args: { name: 'doomed' } })).statuses).toEqual(['ok']);
    });

    it('label_delete with cascade none keeps the name on tasks as a shared label', async () => {
      const { mapping } = await run(
        { type: 'label_add', temp_id: 'l', args: { name: 'Sharedish' } },
        { type: 'item_add', temp_id: 't', args: { content: 'Keeps its label', labels: ['Sharedish'] } },
      );
      const token = (await read()).sync_token;
      expect((await run({ type: 'label_delete', args: { id: mapping['l'], cascade: 'none' } })).statuses).toEqual(['ok']);
      const changes = await read(token);
      expect(byId(changes.labels, mapping['l'])).toMatchObject({ is_deleted: true });
      expect(byId(changes.items, mapping['t'])).toBeUndefined();
      const after = await read();
      expect(labelsOf(after, mapping['t'])).toEqual(['Sharedish']);
      expect(after.labels.map((label: any) => label.name)).not.toContain('Sharedish');
    });

    it('label_rename renames a shared label on tasks, and the personal label of that name when there is one', async () => {
      const { mapping } = await run(
        { type: 'item_add', temp_id: 's', args: { content: 'Shared only', labels: ['team'] } },
        { type: 'label_add', temp_id: 'p', args: { name: 'Mine' } },
        { type: 'item_add', temp_id: 'm', args: { content: 'Personal', labels: ['mine', 'Crew'] } },
      );
      const token = (await read()).sync_token;
      const { statuses } = await run(
        { type: 'label_rename', args: { name_old: 'team', name_new: 'Squad' } },
        { type: 'label_rename', args: { name_old: 'Mine', name_new: 'Crew' } },
      );
      expect(statuses).toEqual(['ok', 'ok']);
      const changes = await read(token);
      expect(labelsOf(changes, mapping['s'])).toEqual(['Squad']);
      // Case is ignored when matching, and a task never carries a name twice.
      expect(labelsOf(changes, mapping['m'])).toEqual(['Crew']);
      expect(byId(changes.labels, mapping['p'])).toMatchObject({ name: 'Crew', is_deleted: false });
      expect(changes.labels).toHaveLength(1);
    });

    it('label_delete_occurrences takes a name off tasks and keeps the personal label', async () => {
      const { mapping } = await run(
        { type: 'label_add', temp_id: 'l', args: { name: 'Someday' } },
        { type: 'item_add', temp_id: 't', args: { content: 'Maybe', labels: ['Someday', 'other'] } },
      );
      const token = (await read()).sync_token;
      expect((await run({ type: 'label_delete_occurrences', args: { name: 'Someday' } })).statuses).toEqual(['ok']);
      const changes = await read(token);
      expect(labelsOf(changes, mapping['t'])).toEqual(['other']);
      expect(byId(changes.labels, mapping['l'])).toBeUndefined();
      expect(byId((await read()).labels, mapping['l'])).toMatchObject({ name: 'Someday', is_deleted: false });
    });

    it('refuses duplicate names, bad arguments and unknown labels', async () => {
      const { mapping } = await run({ type: 'label_add', temp_id: 'x', args: { name: 'Unique' } }, { type: 'label_add', temp_id: 'y', args: { name: 'Other unique' } });
      const { statuses } = await run(
        { type: 'label_add', args: { name: 'UNIQUE' } },
        { type: 'label_update', args: { id: mapping['y'], name: 'unique' } },
        { type: 'label_rename', args: { name_old: 'Other unique', name_new: 'Unique' } },
        { type: 'label_add', args: {} },
        { type: 'label_add', args: { name: '   ' } },
        { type: 'label_add', args: { name: 'Bad colour', color: 'plaid' } },
        { type: 'label_delete', args: { id: mapping['x'], cascade: 'some' } },
        { type: 'label_update', args: { id: '9999999999', name: 'x' } },
        { type: 'label_delete', args: { id: '9999999999' } },
        { type: 'label_update_orders', args: { id_order_mapping: { [mapping['x']]: 1, '9999999999': 2 } } },
        { type: 'label_rename', args: { name_old: 'a' } },
        { type: 'label_delete_occurrences', args: {} },
      );
      expect(statuses.slice(0, 3)).toEqual(Array(3).fill(expect.objectContaining({ error_tag: 'LABEL_ALREADY_EXISTS', http_code: 400 })));
      expect(statuses[3]).toMatchObject({ error_tag: 'ARGUMENT_MISSING', error_extra: { argument: 'name' } });
      expect(statuses[4]).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE', error_extra: { argument: 'name' } });
      expect(statuses[5]).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE', error_extra: { argument: 'color' } });
      expect(statuses[6]).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE', error_extra: { argument: 'cascade' } });
      expect(statuses.slice(7, 9)).toEqual(Array(2).fill(expect.objectContaining({ error_tag: 'LABEL_NOT_FOUND', http_code: 404 })));
      // An order map answers per id once an id is refused; the good id is applied.
      expect(statuses[9]).toEqual({ [mapping['x']]: 'ok', '9999999999': expect.objectContaining({ error_tag: 'LABEL_NOT_FOUND', http_code: 404 }) });
      expect(statuses[10]).toMatchObject({ error_tag: 'ARGUMENT_MISSING', error_extra: { argument: 'name_new' } });
      expect(statuses[11]).toMatchObject({ error_tag: 'ARGUMENT_MISSING', error_extra: { argument: 'name' } });
      // The refused renames left both labels as they were.
      const labels = (await read()).labels;
      expect(byId(labels, mapping['x'])).toMatchObject({ name: 'Unique', order: 1 });
      expect(byId(labels, mapping['y'])).toMatchObject({ name: 'Other unique' });
    });

    it("another user's labels are neither visible nor changeable, and their renames never reach this user's tasks", async () => {
      const { mapping } = await run(
        { type: 'label_add', temp_id: 'l', args: { name: 'Private' } },
        { type: 'item_add', temp_id: 't', args: { content: 'Mine', labels: ['Private'] } },
      );
      const theirs = await otherSession.run(
        { type: 'label_update', args: { id: mapping['l'], name: 'Stolen' } },
        { type: 'label_delete', args: { id: mapping['l'] } },
        { type: 'label_update_orders', args: { id_order_mapping: { [mapping['l']]: 5 } } },
        { type: 'label_rename', args: { name_old: 'Private', name_new: 'Stolen' } },
        { type: 'label_delete_occurrences', args: { name: 'Private' } },
      );
      expect(theirs.statuses.slice(0, 2)).toEqual(Array(2).fill(expect.objectContaining({ error_tag: 'LABEL_NOT_FOUND', http_code: 404 })));
      expect(theirs.statuses[2]).toEqual({ [mapping['l']]: expect.objectContaining({ error_tag: 'LABEL_NOT_FOUND', http_code: 404 }) });
      expect(theirs.statuses.slice(3)).toEqual(['ok', 'ok']);
      const otherView = await otherSession.sync({ sync_token: '*', resource_types: ['labels'] });
      expect(otherView.labels.map((label: any) => label.id)).not.toContain(mapping['l']);
      const mine = await read();
      expect(byId(mine.labels, mapping['l'])).toMatchObject({ name: 'Private', is_deleted: false });
      expect(labelsOf(mine, mapping['t'])).toEqual(['Private']);
    });
  });

  describe('filters', () => {
    it('adds a filter by temp id, with every key the SDK requires in both dialects', async () => {
      const { statuses, mapping } = await run({ type: 'filter_add', temp_id: 'f', args: { name: 'Today', query: 'today | overdue', color: 'red', is_favorite: true } });
      expect(statuses).toEqual(['ok']);
      const v1 = await read();
      const filter = byId(v1.filters, mapping['f']);
      expect(filter).toMatchObject({ name: 'Today', query: 'today | overdue', color: 'red', is_favorite: true, is_deleted: false, is_frozen: false, description: null });
      expectKeys(filter, FILTER_KEYS);
      const v9 = byId((await read('*', '/sync/v9/sync')).filters, mapping['f']);
      expectKeys(v9, FILTER_KEYS);
      expect(v9).not.toHaveProperty('description');
    });

    it('updates, reorders and deletes filters; incremental syncs carry the changes and the tombstone', async () => {
      const { mapping } = await run(
        { type: 'filter_add', temp_id: 'a', args: { name: 'Work', query: '#Work' } },
        { type: 'filter_add', temp_id: 'b', args: { name: 'Home', query: '#Home', item_order: 9 } },
      );
      const start = await read();
      expect(byId(start.filters, mapping['b'])).toMatchObject({ item_order: 9, color: 'charcoal' });
      const { statuses } = await run(
        { type: 'filter_update', args: { id: mapping['a'], name: 'Work (p1)', query: '#Work & p1', color: 'blue', description: 'Urgent work' } },
        { type: 'filter_update_orders', args: { id_order_mapping: { [mapping['a']]: 2, [mapping['b']]: 1 } } },
      );
      expect(statuses).toEqual(['ok', 'ok']);
      const changes = await read(start.sync_token);
      expect(changes.filters.map((filter: any) => filter.id).sort()).toEqual([mapping['a'], mapping['b']].sort());
      expect(byId(changes.filters, mapping['a'])).toMatchObject({ name: 'Work (p1)', query: '#Work & p1', color: 'blue', description: 'Urgent work', item_order: 2 });
      expect(byId(changes.filters, mapping['b'])).toMatchObject({ item_order: 1 });

      expect((await run({ type: 'filter_delete', args: { id: mapping['b'] } })).statuses).toEqual(['ok']);
      const deleted = await read(changes.sync_token);
      expect(deleted.filters).toHaveLength(1);
      expectKeys(deleted.filters[0], FILTER_KEYS);
      expect(deleted.filters[0]).toMatchObject({ id: mapping['b'], name: 'Home', is_deleted: true });
      expect(byId((await read()).filters, mapping['b'])).toBeUndefined();
    });

    it('refuses missing arguments and unknown filters', async () => {
      const { mapping } = await run({ type: 'filter_add', temp_id: 'f', args: { name: 'Kept', query: 'p1' } });
      const { statuses } = await run(
        { type: 'filter_add', args: { name: 'No query' } },
        { type: 'filter_add', args: { query: 'p1' } },
        { type: 'filter_add', args: { name: 'Empty query', query: '' } },
        { type: 'filter_update', args: { id: mapping['f'], item_order: 'first' } },
        { type: 'filter_update', args: { name: 'No id' } },
        { type: 'filter_update', args: { id: '9999999999', name: 'x' } },
        { type: 'filter_delete', args: { id: '9999999999' } },
        { type: 'filter_update_orders', args: { id_order_mapping: { [mapping['f']]: 4, '9999999999': 1 } } },
        { type: 'filter_delete', args: { id: 'never-seen-temp-id' } },
      );
      expect(statuses[0]).toMatchObject({ error_tag: 'ARGUMENT_MISSING', error_extra: { argument: 'query' } });
      expect(statuses[1]).toMatchObject({ error_tag: 'ARGUMENT_MISSING', error_extra: { argument: 'name' } });
      expect(statuses[2]).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE', error_extra: { argument: 'query' } });
      expect(statuses[3]).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE', error_extra: { argument: 'item_order' } });
      expect(statuses[4]).toMatchObject({ error_tag: 'ARGUMENT_MISSING', error_extra: { argument: 'id' } });
      expect(statuses.slice(5, 7)).toEqual(Array(2).fill(expect.objectContaining({ error_tag: 'FILTER_NOT_FOUND', http_code: 404 })));
      expect(statuses[7]).toEqual({ [mapping['f']]: 'ok', '9999999999': expect.objectContaining({ error_tag: 'FILTER_NOT_FOUND', http_code: 404 }) });
      expect(statuses[8]).toMatchObject({ error_tag: 'INVALID_TEMPID' });
      // The good id of the order map was applied.
      expect(byId((await read()).filters, mapping['f']).item_order).toBe(4);
    });

    it("another user's filters are neither visible nor changeable", async () => {
      const { mapping } = await run({ type: 'filter_add', temp_id: 'f', args: { name: 'Secret', query: '@Private' } });
      const theirs = await otherSession.run(
        { type: 'filter_update', args: { id: mapping['f'], name: 'Stolen' } },
        { type: 'filter_delete', args: { id: mapping['f'] } },
        { type: 'filter_update_orders', args: { id_order_mapping: { [mapping['f']]: 5 } } },
      );
      expect(theirs.statuses.slice(0, 2)).toEqual(Array(2).fill(expect.objectContaining({ error_tag: 'FILTER_NOT_FOUND', http_code: 404 })));
      expect(theirs.statuses[2]).toEqual({ [mapping['f']]: expect.objectContaining({ error_tag: 'FILTER_NOT_FOUND', http_code: 404 }) });
      const otherView = await otherSession.sync({ sync_token: '*', resource_types: ['filters'] });
      expect(otherView.filters.map((filter: any) => filter.id)).not.toContain(mapping['f']);
      expect(byId((await read()).filters, mapping['f'])).toMatchObject({ name: 'Secret', is_deleted: false });
    });
  });
});
