import { http } from '@doable/shared-testing';
import { syncSession } from './support/sync-session';
import { MODES } from './support/system-view';
import { useSystem } from './support/use-system';

const UNKNOWN = '9999999999';
const notFound = (tag: string) => expect.objectContaining({ error_tag: tag, http_code: 404 });
const byId = (list: any[], id: string) => list.find((entry) => entry.id === id);
const idsIn = (list: any[]) => list.map((entry) => entry.id as string);

/**
 * The Sync API's command engine across commands: answers per id (spec §7.2), temp ids across
 * requests, error paths with other users' objects, what incremental syncs carry after each
 * kind of change, and the historical argument names.
 */
describe.each(MODES)('sync engine (%s)', (mode) => {
  const { system, accounts: [account, other] } = useSystem(mode, { accounts: 2 });

  const { sync, run } = syncSession(() => system, () => account, 'se');
  const theirs = syncSession(() => system, () => other, 'se-other');
  const ALL = ['projects', 'sections', 'items'];
  const full = (types: string[] = ALL) => sync({ sync_token: '*', resource_types: types });
  const theirFull = () => theirs.sync({ sync_token: '*', resource_types: ALL });
  const since = (token: string, types: string[] = ALL) => sync({ sync_token: token, resource_types: types });

  /** Another user's project, section and task, made by them. */
  const theirObjects = async () => {
    const { statuses, mapping } = await theirs.run(
      { type: 'project_add', temp_id: 'tp', args: { name: 'Theirs' } },
      { type: 'section_add', temp_id: 'ts', args: { name: 'Their section', project_id: 'tp' } },
      { type: 'item_add', temp_id: 'tt', args: { content: 'Their task', project_id: 'tp', section_id: 'ts' } },
    );
    expect(statuses).toEqual(['ok', 'ok', 'ok']);
    return { project: mapping['tp'], section: mapping['ts'], item: mapping['tt'] };
  };

  describe('answers per id (spec §7.2)', () => {
    it('does each of a legacy `ids` array on its own: unknown and foreign ids leave the good ones done', async () => {
      const foreign = await theirObjects();
      const { mapping } = await run(
        { type: 'item_add', temp_id: 'a', args: { content: 'Complete me' } },
        { type: 'item_add', temp_id: 'b', args: { content: 'Delete me' } },
        { type: 'project_add', temp_id: 'p', args: { name: 'Archive me' } },
        { type: 'project_add', temp_id: 'q', args: { name: 'Delete me too' } },
      );
      const { statuses } = await run(
        { type: 'item_complete', args: { ids: [mapping['a'], foreign.item, UNKNOWN] } },
        { type: 'item_delete', args: { ids: [foreign.item, mapping['b']] } },
        { type: 'project_archive', args: { ids: [mapping['p'], foreign.project] } },
        { type: 'project_delete', args: { ids: [UNKNOWN, mapping['q']] } },
      );
      expect(statuses[0]).toEqual({ [mapping['a']]: 'ok', [foreign.item]: notFound('ITEM_NOT_FOUND'), [UNKNOWN]: notFound('ITEM_NOT_FOUND') });
      expect(statuses[1]).toEqual({ [foreign.item]: notFound('ITEM_NOT_FOUND'), [mapping['b']]: 'ok' });
      expect(statuses[2]).toEqual({ [mapping['p']]: 'ok', [foreign.project]: notFound('PROJECT_NOT_FOUND') });
      expect(statuses[3]).toEqual({ [UNKNOWN]: notFound('PROJECT_NOT_FOUND'), [mapping['q']]: 'ok' });
      const mine = await full();
      expect(idsIn(mine.items)).not.toContain(mapping['a']);
      expect(idsIn(mine.items)).not.toContain(mapping['b']);
      expect(idsIn(mine.projects)).not.toContain(mapping['p']);
      expect(idsIn(mine.projects)).not.toContain(mapping['q']);
      const theirView = await theirFull();
      expect(byId(theirView.items, foreign.item)).toMatchObject({ checked: false, is_deleted: false });
      expect(byId(theirView.projects, foreign.project)).toMatchObject({ is_archived: false });

      // Every id ok: still the map for the `ids` form.
      const back = await run({ type: 'item_uncomplete', args: { ids: [mapping['a']] } }, { type: 'project_unarchive', args: { ids: [mapping['p']] } });
      expect(back.statuses).toEqual([{ [mapping['a']]: 'ok' }, { [mapping['p']]: 'ok' }]);
      expect(byId((await full()).items, mapping['a'])).toMatchObject({ checked: false });
    });

    it('answers ok for a child an earlier id of the same command already deleted with its parent', async () => {
      const { mapping } = await run(
        { type: 'project_add', temp_id: 'pp', args: { name: 'Parent project' } },
        { type: 'project_add', temp_id: 'pc', args: { name: 'Child project', parent_id: 'pp' } },
        { type: 'item_add', temp_id: 'tp', args: { content: 'Parent task' } },
        { type: 'item_add', temp_id: 'tc', args: { content: 'Child task', parent_id: 'tp' } },
      );
      const token = (await full()).sync_token;
      const { statuses } = await run(
        { type: 'item_delete', args: { ids: [mapping['tp'], mapping['tc']] } },
        { type: 'project_delete', args: { ids: [mapping['pp'], mapping['pc']] } },
      );
      expect(statuses).toEqual([
        { [mapping['tp']]: 'ok', [mapping['tc']]: 'ok' },
        { [mapping['pp']]: 'ok', [mapping['pc']]: 'ok' },
      ]);
      const changes = await since(token, ['projects', 'items']);
      for (const key of ['tp', 'tc']) expect(byId(changes.items, mapping[key])).toMatchObject({ is_deleted: true });
      for (const key of ['pp', 'pc']) expect(byId(changes.projects, mapping[key])).toMatchObject({ is_deleted: true });
    });

    it('replays the per-id answer of a retried uuid without running it again', async () => {
      const { mapping } = await run({ type: 'item_add', temp_id: 'r', args: { content: 'Once' } });
      const command = { type: 'item_complete', uuid: `se-replay-${mode}`, args: { ids: [mapping['r'], UNKNOWN] } };
      const first = await sync({ commands: [command] });
      expect(first.sync_status[command.uuid]).toEqual({ [mapping['r']]: 'ok', [UNKNOWN]: notFound('ITEM_NOT_FOUND') });
      await run({ type: 'item_uncomplete', args: { id: mapping['r'] } });
      const again = await sync({ commands: [command] });
      expect(again.sync_status).toEqual(first.sync_status);
      // Not run again: the task reopened in between stays open.
      expect(byId((await full()).items, mapping['r'])).toMatchObject({ checked: false });
    });

    it('answers an order map or list ok when every id succeeded, and per id, with the good ones applied, when one was refused', async () => {
      const foreign = await theirObjects();
      const { mapping } = await run(
        { type: 'project_add', temp_id: 'p', args: { name: 'Orders' } },
        { type: 'section_add', temp_id: 's', args: { name: 'Order section', project_id: 'p' } },
        { type: 'item_add', temp_id: 'x', args: { content: 'X', project_id: 'p' } },
        { type: 'item_add', temp_id: 'y', args: { content: 'Y', project_id: 'p' } },
      );
      const theirBefore = await theirFull();
      const { statuses } = await run(
        { type: 'item_update_day_orders', args: { ids_to_orders: { [mapping['x']]: 1, [mapping['y']]: 2 } } },
        { type: 'item_update_day_orders', args: { ids_to_orders: { [mapping['x']]: 5, [foreign.item]: 6 } } },
        { type: 'item_reorder', args: { items: [{ id: mapping['y'], child_order: 30 }, { id: foreign.item, child_order: 1 }] } },
        { type: 'project_reorder', args: { projects: [{ id: foreign.project, child_order: 1 }, { id: mapping['p'], child_order: 40 }] } },
        { type: 'section_reorder', args: { sections: [{ id: mapping['s'], section_order: 50 }, { id: UNKNOWN, section_order: 1 }] } },
        { type: 'item_reorder', args: { items: [{ id: mapping['x'], child_order: 60 }] } },
      );
      expect(statuses[0]).toBe('ok');
      expect(statuses[1]).toEqual({ [mapping['x']]: 'ok', [foreign.item]: notFound('ITEM_NOT_FOUND') });
      expect(statuses[2]).toEqual({ [mapping['y']]: 'ok', [foreign.item]: notFound('ITEM_NOT_FOUND') });
      expect(statuses[3]).toEqual({ [foreign.project]: notFound('PROJECT_NOT_FOUND'), [mapping['p']]: 'ok' });
      expect(statuses[4]).toEqual({ [mapping['s']]: 'ok', [UNKNOWN]: notFound('SECTION_NOT_FOUND') });
      expect(statuses[5]).toBe('ok');
      const mine = await full();
      expect(mine.day_orders[mapping['x']]).toBe(5);
      expect(mine.day_orders[mapping['y']]).toBe(2);
      expect(byId(mine.items, mapping['x'])).toMatchObject({ child_order: 60 });
      expect(byId(mine.items, mapping['y'])).toMatchObject({ child_order: 30 });
      expect(byId(mine.projects, mapping['p'])).toMatchObject({ child_order: 40 });
      expect(byId(mine.sections, mapping['s'])).toMatchObject({ section_order: 50 });
      const theirView = await theirFull();
      expect(byId(theirView.items, foreign.item)).toEqual(byId(theirBefore.items, foreign.item));
      expect(byId(theirView.projects, foreign.project)).toEqual(byId(theirBefore.projects, foreign.project));
      expect(theirView.day_orders).toEqual(theirBefore.day_orders);
    });
  });

  it('unarchives the archived section of a task it reopens', async () => {
    const { mapping } = await run(
      { type: 'project_add', temp_id: 'p', args: { name: 'Shelved' } },
      { type: 'section_add', temp_id: 's', args: { name: 'Archived shelf', project_id: 'p' } },
      { type: 'item_add', temp_id: 't', args: { content: 'Back from the shelf', section_id: 's' } },
      { type: 'item_add', temp_id: 'u', args: { content: 'Stays done', section_id: 's' } },
    );
    await run({ type: 'section_archive', args: { id: mapping['s'] } });
    const archived = await full();
    expect(idsIn(archived.sections)).not.toContain(mapping['s']);
    expect(idsIn(archived.items)).not.toContain(mapping['t']);

    const { statuses } = await run({ type: 'item_uncomplete', args: { id: mapping['t'] } });
    expect(statuses).toEqual(['ok']);
    const changes = await since(archived.sync_token);
    expect(byId(changes.sections, mapping['s'])).toMatchObject({ is_archived: false, archived_at: null });
    expect(byId(changes.items, mapping['t'])).toMatchObject({ checked: false, section_id: mapping['s'] });
    const after = await full();
    expect(idsIn(after.sections)).toContain(mapping['s']);
    expect(idsIn(after.items)).toContain(mapping['t']);
    // Only the reopened task comes back: the section's other completed task stays completed.
    expect(idsIn(after.items)).not.toContain(mapping['u']);
  });

  describe('item_update_date_complete', () => {
    const dueOf = async (id: string) => byId((await full(['items'])).items, id).due;

    it('moves a recurring task to the given due, or the computed next one, and unchecks its subtasks when asked', async () => {
      const { mapping } = await run(
        { type: 'item_add', temp_id: 'r', args: { content: 'Water the plants', due: { date: '2031-03-03', string: 'every day', is_recurring: true } } },
        { type: 'item_add', temp_id: 'c', args: { content: 'Fill the can', parent_id: 'r' } },
      );
      await run({ type: 'item_close', args: { id: mapping['c'] } });
      const { statuses } = await run({ type: 'item_update_date_complete', args: { id: mapping['r'], due: { date: '2031-03-10', string: 'every day' }, reset_subtasks: true } });
      expect(statuses).toEqual(['ok']);
      const items = (await full(['items'])).items;
      expect(byId(items, mapping['r'])).toMatchObject({ checked: false, due: expect.objectContaining({ date: '2031-03-10', string: 'every day', is_recurring: true }) });
      expect(byId(items, mapping['c'])).toMatchObject({ checked: false });

      await run({ type: 'item_close', args: { id: mapping['c'] } });
      expect((await run({ type: 'item_update_date_complete', args: { id: mapping['r'] } })).statuses).toEqual(['ok']);
      expect(await dueOf(mapping['r'])).toMatchObject({ date: '2031-03-11', is_recurring: true });
      // Without reset_subtasks the checked subtask stays checked.
      expect(byId((await full(['items'])).items, mapping['c'])).toMatchObject({ checked: true });
    });

    it('undoes with is_forward false: the due goes back to the given one, subtasks reset as asked', async () => {
      const { mapping } = await run(
        { type: 'item_add', temp_id: 'r', args: { content: 'Stretch', due: { date: '2031-05-01', string: 'every day', is_recurring: true } } },
        { type: 'item_add', temp_id: 'c', args: { content: 'Warm up', parent_id: 'r' } },
      );
      await run({ type: 'item_update_date_complete', args: { id: mapping['r'] } });
      expect(await dueOf(mapping['r'])).toMatchObject({ date: '2031-05-02' });
      await run({ type: 'item_close', args: { id: mapping['c'] } });

      const token = (await full(['items'])).sync_token;
      const { statuses } = await run({
        type: 'item_update_date_complete',
        args: { id: mapping['r'], due: { date: '2031-05-01', string: 'every day', is_recurring: true }, is_forward: false, reset_subtasks: 1 },
      });
      expect(statuses).toEqual(['ok']);
      const changes = await since(token, ['items']);
      expect(byId(changes.items, mapping['r'])).toMatchObject({ checked: false, due: expect.objectContaining({ date: '2031-05-01', string: 'every day', is_recurring: true }) });
      expect(byId(changes.items, mapping['c'])).toMatchObject({ checked: false });
    });

    it('completes a task whose series has ended, and the undo reopens it', async () => {
      const { mapping } = await run({ type: 'item_add', temp_id: 'once', args: { content: 'One-off', due: { date: '2031-06-01' } } });
      await run({ type: 'item_update_date_complete', args: { id: mapping['once'] } });
      expect(idsIn((await full(['items'])).items)).not.toContain(mapping['once']);
      await run({ type: 'item_update_date_complete', args: { id: mapping['once'], due: { date: '2031-06-01' }, is_forward: false } });
      expect(byId((await full(['items'])).items, mapping['once'])).toMatchObject({ checked: false, due: expect.objectContaining({ date: '2031-06-01' }) });
    });

    it('refuses an undo without a due, a malformed due, and unknown or foreign tasks', async () => {
      const foreign = await theirObjects();
      const { mapping } = await run({ type: 'item_add', temp_id: 'k', args: { content: 'Kept', due: { date: '2031-07-01', string: 'every week', is_recurring: true } } });
      const { statuses } = await run(
        { type: 'item_update_date_complete', args: { id: mapping['k'], is_forward: false } },
        { type: 'item_update_date_complete', args: { id: mapping['k'], due: { string: 'every blursday' } } },
        { type: 'item_update_date_complete', args: { id: UNKNOWN } },
        { type: 'item_update_date_complete', args: { id: foreign.item, due: { date: '2031-01-01' } } },
        { type: 'item_update_date_complete', args: {} },
      );
      expect(statuses[0]).toMatchObject({ error_tag: 'ARGUMENT_MISSING', error_extra: { argument: 'due' } });
      expect(statuses[1]).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE', error_extra: { argument: 'due' } });
      expect(statuses.slice(2, 4)).toEqual([notFound('ITEM_NOT_FOUND'), notFound('ITEM_NOT_FOUND')]);
      expect(statuses[4]).toMatchObject({ error_tag: 'ARGUMENT_MISSING', error_extra: { argument: 'id' } });
      expect(await dueOf(mapping['k'])).toMatchObject({ date: '2031-07-01' });
      expect(byId((await theirFull()).items, foreign.item).due).toBeNull();
    });
  });

  it("answers the not-found code for unknown and another user's objects, and changes none of theirs", async () => {
    const foreign = await theirObjects();
    const { mapping } = await run({ type: 'project_add', temp_id: 'p', args: { name: 'Mine' } }, { type: 'section_add', temp_id: 's', args: { name: 'My section', project_id: 'p' } });
    const before = await theirFull();
    const { statuses } = await run(
      { type: 'item_close', args: { id: foreign.item } },
      { type: 'item_close', args: { id: UNKNOWN } },
      { type: 'item_uncomplete', args: { id: foreign.item } },
      { type: 'item_uncomplete', args: { id: UNKNOWN } },
      { type: 'section_archive', args: { id: foreign.section } },
      { type: 'section_unarchive', args: { id: foreign.section } },
      { type: 'section_delete', args: { id: foreign.section } },
      { type: 'section_move', args: { id: foreign.section, project_id: mapping['p'] } },
      { type: 'section_archive', args: { id: UNKNOWN } },
      { type: 'section_move', args: { id: mapping['s'], project_id: foreign.project } },
      { type: 'project_move', args: { id: mapping['p'], parent_id: foreign.project } },
      { type: 'project_move', args: { id: foreign.project, parent_id: null } },
      { type: 'item_reorder', args: { items: [{ id: UNKNOWN, child_order: 1 }] } },
      { type: 'item_update_day_orders', args: { ids_to_orders: { [foreign.item]: 3 } } },
      { type: 'section_reorder', args: { sections: [{ id: foreign.section, section_order: 9 }] } },
      { type: 'project_reorder', args: { projects: [{ id: foreign.project, child_order: 9 }] } },
    );
    expect(statuses.slice(0, 4)).toEqual(Array(4).fill(notFound('ITEM_NOT_FOUND')));
    expect(statuses.slice(4, 9)).toEqual(Array(5).fill(notFound('SECTION_NOT_FOUND')));
    expect(statuses[9]).toEqual(expect.objectContaining({ error_tag: 'PROJECT_NOT_FOUND', error_extra: expect.objectContaining({ argument: 'project_id' }) }));
    expect(statuses[10]).toEqual(expect.objectContaining({ error_tag: 'PROJECT_NOT_FOUND', error_extra: expect.objectContaining({ argument: 'parent_id' }) }));
    expect(statuses[11]).toEqual(notFound('PROJECT_NOT_FOUND'));
    // An order list or map whose only id is refused answers that id's error by id.
    expect(statuses[12]).toEqual({ [UNKNOWN]: notFound('ITEM_NOT_FOUND') });
    expect(statuses[13]).toEqual({ [foreign.item]: notFound('ITEM_NOT_FOUND') });
    expect(statuses[14]).toEqual({ [foreign.section]: notFound('SECTION_NOT_FOUND') });
    expect(statuses[15]).toEqual({ [foreign.project]: notFound('PROJECT_NOT_FOUND') });

    const after = await theirFull();
    for (const kind of ['projects', 'sections', 'items']) {
      const id = kind === 'projects' ? foreign.project : kind === 'sections' ? foreign.section : foreign.item;
      expect(byId(after[kind], id)).toEqual(byId(before[kind], id));
    }
    expect(byId((await full()).sections, mapping['s'])).toMatchObject({ project_id: mapping['p'] });
    expect(byId((await full()).projects, mapping['p'])).toMatchObject({ parent_id: null });
  });

  it('resolves temp ids along a chain of three requests, and never another user’s', async () => {
    const first = await run({ type: 'project_add', temp_id: 'chain-project', args: { name: 'Chain' } });
    const second = await run(
      { type: 'section_add', temp_id: 'chain-section', args: { name: 'Links', project_id: 'chain-project' } },
      { type: 'item_add', temp_id: 'chain-task', args: { content: 'First link', project_id: 'chain-project', section_id: 'chain-section' } },
    );
    const third = await run(
      { type: 'item_add', temp_id: 'chain-subtask', args: { content: 'Second link', parent_id: 'chain-task' } },
      { type: 'note_add', temp_id: 'chain-note', args: { item_id: 'chain-subtask', content: 'Third link' } },
      { type: 'section_update', args: { id: 'chain-section', name: 'Renamed links' } },
      { type: 'item_update', args: { id: 'chain-task', content: 'First link, updated' } },
      { type: 'project_update', args: { id: 'chain-project', name: 'Chain, updated' } },
    );
    for (const step of [first, second, third]) expect(step.statuses.every((status) => status === 'ok')).toBe(true);
    const [projectId, sectionId, taskId, subtaskId] = [first.mapping['chain-project'], second.mapping['chain-section'], second.mapping['chain-task'], third.mapping['chain-subtask']];
    expect(Object.keys(third.mapping).sort()).toEqual(['chain-note', 'chain-subtask']);
    const body = await sync({ sync_token: '*', resource_types: ['projects', 'sections', 'items', 'notes'] });
    expect(byId(body.projects, projectId)).toMatchObject({ name: 'Chain, updated' });
    expect(byId(body.sections, sectionId)).toMatchObject({ name: 'Renamed links', project_id: projectId });
    expect(byId(body.items, taskId)).toMatchObject({ content: 'First link, updated', project_id: projectId, section_id: sectionId });
    expect(byId(body.items, subtaskId)).toMatchObject({ parent_id: taskId, project_id: projectId, section_id: sectionId });
    expect(byId(body.notes, third.mapping['chain-note'])).toMatchObject({ item_id: subtaskId, content: 'Third link' });

    const stranger = await theirs.run({ type: 'item_add', args: { content: 'Hijack', parent_id: 'chain-task' } }, { type: 'project_update', args: { id: 'chain-project', name: 'Hijacked' } });
    expect(stranger.statuses).toEqual(Array(2).fill(expect.objectContaining({ error_tag: 'INVALID_TEMPID' })));
  });

  describe('incremental syncs carry the changed object and not an untouched one', () => {
    let ids: Record<string, string> = {};

    beforeAll(async () => {
      const { statuses, mapping } = await run(
        { type: 'project_add', temp_id: 'p1', args: { name: 'Changed project' } },
        { type: 'project_add', temp_id: 'p2', args: { name: 'Other parent' } },
        { type: 'project_add', temp_id: 'p3', args: { name: 'Untouched project' } },
        { type: 'section_add', temp_id: 's1', args: { name: 'Changed section', project_id: 'p1' } },
        { type: 'section_add', temp_id: 's2', args: { name: 'Untouched section', project_id: 'p1' } },
        { type: 'item_add', temp_id: 't1', args: { content: 'Changed task', project_id: 'p1' } },
        { type: 'item_add', temp_id: 't2', args: { content: 'Untouched task', project_id: 'p1' } },
      );
      expect(statuses.every((status) => status === 'ok')).toBe(true);
      ids = mapping;
    });

    const cases: Array<[string, () => Record<string, unknown>, 'projects' | 'sections' | 'items', string, string, () => Record<string, unknown>]> = [
      ['project_update', () => ({ id: ids['p1'], name: 'Renamed project', color: 'red' }), 'projects', 'p1', 'p3', () => ({ name: 'Renamed project', color: 'red' })],
      ['project_move', () => ({ id: ids['p1'], parent_id: ids['p2'] }), 'projects', 'p1', 'p3', () => ({ parent_id: ids['p2'] })],
      ['project_reorder', () => ({ projects: [{ id: ids['p1'], child_order: 17 }] }), 'projects', 'p1', 'p3', () => ({ child_order: 17 })],
      ['section_update', () => ({ id: ids['s1'], name: 'Renamed section' }), 'sections', 's1', 's2', () => ({ name: 'Renamed section' })],
      ['section_reorder', () => ({ sections: [{ id: ids['s1'], section_order: 23 }] }), 'sections', 's1', 's2', () => ({ section_order: 23 })],
      ['section_move', () => ({ id: ids['s1'], project_id: ids['p2'] }), 'sections', 's1', 's2', () => ({ project_id: ids['p2'] })],
      ['item_reorder', () => ({ items: [{ id: ids['t1'], child_order: 31 }] }), 'items', 't1', 't2', () => ({ child_order: 31 })],
      ['item_move', () => ({ id: ids['t1'], project_id: ids['p3'] }), 'items', 't1', 't2', () => ({ project_id: ids['p3'] })],
    ];

    it.each(cases)('after %s', async (type, args, kind, changed, untouched, expected) => {
      const token = (await full()).sync_token;
      expect((await run({ type, args: args() })).statuses).toEqual(['ok']);
      const changes = await since(token, [kind]);
      expect(byId(changes[kind], ids[changed])).toMatchObject(expected());
      expect(idsIn(changes[kind])).not.toContain(ids[untouched]);
      // And then nothing more.
      expect((await since(changes.sync_token, [kind]))[kind]).toEqual([]);
    });
  });

  it('accepts the historical argument names: date_completed, collapsed and ids', async () => {
    const { mapping } = await run(
      { type: 'project_add', temp_id: 'p', args: { name: 'Legacy' } },
      { type: 'section_add', temp_id: 's', args: { name: 'Legacy section', project_id: 'p' } },
      { type: 'item_add', temp_id: 't', args: { content: 'Legacy task', project_id: 'p' } },
      { type: 'item_add', temp_id: 'done', args: { content: 'Done long ago', project_id: 'p' } },
      { type: 'item_add', temp_id: 'gone', args: { content: 'Gone', project_id: 'p' } },
    );
    const token = (await full()).sync_token;
    const { statuses } = await run(
      { type: 'project_update', args: { id: mapping['p'], collapsed: 1 } },
      { type: 'section_update', args: { id: mapping['s'], collapsed: true } },
      { type: 'item_update', args: { id: mapping['t'], collapsed: 1 } },
      { type: 'item_complete', args: { ids: [mapping['done']], date_completed: '2030-04-05T06:07:08.000000Z' } },
      { type: 'item_delete', args: { ids: [Number(mapping['gone'])] } },
    );
    expect(statuses.slice(0, 3)).toEqual(['ok', 'ok', 'ok']);
    expect(statuses[3]).toEqual({ [mapping['done']]: 'ok' });
    expect(statuses[4]).toEqual({ [mapping['gone']]: 'ok' });
    const changes = await since(token);
    expect(byId(changes.projects, mapping['p'])).toMatchObject({ is_collapsed: true });
    expect(byId(changes.sections, mapping['s'])).toMatchObject({ is_collapsed: true });
    expect(byId(changes.items, mapping['t'])).toMatchObject({ is_collapsed: true });
    expect(byId(changes.items, mapping['done'])).toMatchObject({ checked: true, completed_at: '2030-04-05T06:07:08.000000Z' });
    expect(byId(changes.items, mapping['gone'])).toMatchObject({ is_deleted: true });
  });

  describe('a request refused for its read arguments runs none of its commands', () => {
    const forged = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

    it.each([
      ['another user\'s token', () => forged(`d1:${other.userId}:1:0`)],
      ['a version past the bigint range', () => forged(`d1:${account.userId}:9223372036854775808:0`)],
      ['garbage', () => 'not a token'],
    ])('%s: 400 INVALID_SYNC_TOKEN, and the task it would have deleted is still there', async (_label, token) => {
      const { mapping } = await run({ type: 'item_add', temp_id: 'keep', args: { content: 'Keep me' } });
      const response = await http(system.url, 'POST', '/api/v1/sync', {
        token: account.token,
        json: { sync_token: token(), resource_types: ['items'], commands: [{ type: 'item_delete', uuid: `refused-${Math.random()}`, args: { id: mapping['keep'] } }] },
      });
      expect({ status: response.status, tag: response.body.error_tag }).toEqual({ status: 400, tag: 'INVALID_SYNC_TOKEN' });
      expect(byId((await full(['items'])).items, mapping['keep'])).toMatchObject({ content: 'Keep me', is_deleted: false });
    });

    it('an unknown resource type: 400, and nothing ran', async () => {
      const response = await http(system.url, 'POST', '/api/v1/sync', {
        token: account.token,
        json: { sync_token: '*', resource_types: ['items', 'no_such_thing'], commands: [{ type: 'project_add', uuid: `refused-${Math.random()}`, args: { name: 'Never made' } }] },
      });
      expect(response.status).toBe(400);
      expect((await full(['projects'])).projects.map((project: { name: string }) => project.name)).not.toContain('Never made');
    });
  });
});
