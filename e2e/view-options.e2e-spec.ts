import { runClient } from './support/clients';
import { syncSession } from './support/sync-session';
import { MODES } from './support/system-view';
import { useSystem } from './support/use-system';

const TYPES = ['view_options', 'project_view_options_defaults'];
const UNSET = { grouped_by: null, sorted_by: null, sort_order: null, filtered_by: null, show_completed_tasks: false, calendar_settings: null, property_settings: null, is_deleted: false };

/** Saved view options and project view defaults: commands, full and incremental syncs, tombstones, other users, and the official SDK. */
describe.each(MODES)('view options (%s)', (mode) => {
  const { system, accounts: [account, other] } = useSystem(mode, { accounts: 2 });

  const { sync, run } = syncSession(() => system, () => account, 'vo');
  const theirs = syncSession(() => system, () => other, 'vo-other');
  const full = () => sync({ sync_token: '*', resource_types: TYPES });
  const since = (token: string) => sync({ sync_token: token, resource_types: TYPES });
  const viewOf = (list: any[], type: string, objectId?: string) => list.find((view) => view.view_type === type && view.object_id === objectId);

  it('sets options per view, answers them in full and incremental syncs, and deletes them as tombstones', async () => {
    expect(await full()).toMatchObject({ view_options: [], project_view_options_defaults: [] });
    const { statuses, mapping } = await run(
      { type: 'project_add', temp_id: 'p', args: { name: 'Board' } },
      { type: 'label_add', temp_id: 'l', args: { name: 'viewed' } },
      { type: 'view_options_set', args: { view_type: 'PROJECT', object_id: 'p', view_mode: 'BOARD', grouped_by: 'PRIORITY', calendar_settings: { layout: 'WEEK', visible_day_count: 3 } } },
      { type: 'view_options_set', args: { view_type: 'LABEL', object_id: 'l', sorted_by: 'DUE_DATE', sort_order: 'ASC' } },
      { type: 'view_options_set', args: { view_type: 'UPCOMING', show_completed_tasks: true, property_settings: { order: ['due'], properties: { due: { width: 90 } } } } },
    );
    expect(statuses).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    const start = await full();
    expect(start.view_options).toHaveLength(3);
    expect(viewOf(start.view_options, 'PROJECT', mapping['p'])).toEqual({
      ...UNSET,
      view_type: 'PROJECT',
      object_id: mapping['p'],
      view_mode: 'BOARD',
      grouped_by: 'PRIORITY',
      calendar_settings: { layout: 'WEEK', visible_day_count: 3 },
    });
    expect(viewOf(start.view_options, 'LABEL', mapping['l'])).toEqual({ ...UNSET, view_type: 'LABEL', object_id: mapping['l'], sorted_by: 'DUE_DATE', sort_order: 'ASC' });
    // A view of no object has no object_id, and an unset view_mode is left out.
    expect(viewOf(start.view_options, 'UPCOMING')).toEqual({ ...UNSET, view_type: 'UPCOMING', show_completed_tasks: true, property_settings: { order: ['due'], properties: { due: { width: 90 } } } });

    // A second set changes what it names (property settings merge); the untouched views stay out of the incremental sync.
    await run({ type: 'view_options_set', args: { view_type: 'UPCOMING', sorted_by: 'PRIORITY', property_settings: { properties: { due: { width: null, is_hidden: true } } } } });
    const changed = await since(start.sync_token);
    expect(changed.view_options).toEqual([
      { ...UNSET, view_type: 'UPCOMING', show_completed_tasks: true, sorted_by: 'PRIORITY', property_settings: { order: ['due'], properties: { due: { is_hidden: true } } } },
    ]);
    expect(changed.project_view_options_defaults).toEqual([]);

    const { statuses: deletes } = await run(
      { type: 'view_options_delete', args: { view_type: 'UPCOMING' } },
      { type: 'view_options_delete', args: { view_type: 'UPCOMING' } },
      { type: 'view_options_delete', args: { view_type: 'TODAY' } },
    );
    expect(deletes).toEqual(['ok', 'ok', 'ok']);
    const deleted = await since(changed.sync_token);
    expect(deleted.view_options).toEqual([{ view_type: 'UPCOMING', is_deleted: true }]);
    expect(viewOf((await full()).view_options, 'UPCOMING')).toBeUndefined();

    // Set again, it starts from the defaults, not from what was deleted.
    await run({ type: 'view_options_set', args: { view_type: 'UPCOMING', view_mode: 'CALENDAR' } });
    expect(viewOf((await since(deleted.sync_token)).view_options, 'UPCOMING')).toEqual({ ...UNSET, view_type: 'UPCOMING', view_mode: 'CALENDAR' });

    // Deleting the label takes its view's options with it.
    const beforeLabelDelete = (await full()).sync_token;
    await run({ type: 'label_delete', args: { id: mapping['l'] } });
    expect((await since(beforeLabelDelete)).view_options).toEqual([{ view_type: 'LABEL', object_id: mapping['l'], is_deleted: true }]);
    expect(viewOf((await full()).view_options, 'LABEL', mapping['l'])).toBeUndefined();
  });

  it('sets project defaults the project members see, gone with the project', async () => {
    const { mapping } = await run({ type: 'project_add', temp_id: 'p', args: { name: 'Defaults' } });
    const token = (await full()).sync_token;
    const { statuses } = await run(
      { type: 'project_view_options_defaults_set', args: { project_id: mapping['p'], view_mode: 'LIST', sorted_by: 'MANUAL', filtered_by: 'p1 | p2' } },
      { type: 'project_view_options_defaults_set', args: { project_id: mapping['p'], show_completed_tasks: 1 } },
    );
    expect(statuses).toEqual(['ok', 'ok']);
    const expected = { ...UNSET, project_id: mapping['p'], view_mode: 'LIST', sorted_by: 'MANUAL', filtered_by: 'p1 | p2', show_completed_tasks: true };
    expect((await since(token)).project_view_options_defaults).toEqual([expected]);
    expect((await full()).project_view_options_defaults).toEqual(expect.arrayContaining([expected]));
    expect((await theirs.sync({ sync_token: '*', resource_types: TYPES })).project_view_options_defaults).toEqual([]);

    const beforeDelete = (await full()).sync_token;
    await run({ type: 'project_delete', args: { id: mapping['p'] } });
    expect((await since(beforeDelete)).project_view_options_defaults).toEqual([{ project_id: mapping['p'], is_deleted: true }]);
    expect((await full()).project_view_options_defaults.map((defaults: any) => defaults.project_id)).not.toContain(mapping['p']);
  });

  it("refuses malformed options, views of objects the user cannot see, and changes nothing of another user's", async () => {
    const { mapping } = await theirs.run(
      { type: 'project_add', temp_id: 'tp', args: { name: 'Their project' } },
      { type: 'filter_add', temp_id: 'tf', args: { name: 'Their filter', query: 'p1' } },
      { type: 'view_options_set', args: { view_type: 'TODAY', view_mode: 'BOARD' } },
    );
    const { statuses } = await run(
      { type: 'view_options_set', args: { view_type: 'PROJECT', object_id: mapping['tp'], view_mode: 'LIST' } },
      { type: 'view_options_set', args: { view_type: 'FILTER', object_id: mapping['tf'] } },
      { type: 'view_options_set', args: { view_type: 'LABEL', object_id: '9999999999' } },
      { type: 'view_options_set', args: { view_type: 'PROJECT', view_mode: 'LIST' } },
      { type: 'view_options_set', args: { view_type: 'PROJECT', object_id: 'never-made' } },
      { type: 'view_options_set', args: { view_type: 'NEWSFEED' } },
      { type: 'view_options_set', args: { view_type: 'TODAY', view_mode: 'GRID' } },
      { type: 'view_options_set', args: { view_type: 'TODAY', calendar_settings: { visible_day_count: 5 } } },
      { type: 'view_options_set', args: { view_mode: 'LIST' } },
      { type: 'view_options_delete', args: {} },
      { type: 'project_view_options_defaults_set', args: { project_id: mapping['tp'], view_mode: 'BOARD' } },
      { type: 'project_view_options_defaults_set', args: { view_mode: 'BOARD' } },
    );
    expect(statuses[0]).toMatchObject({ error_tag: 'PROJECT_NOT_FOUND', http_code: 404, error_extra: { argument: 'object_id' } });
    expect(statuses[1]).toMatchObject({ error_tag: 'FILTER_NOT_FOUND', http_code: 404 });
    expect(statuses[2]).toMatchObject({ error_tag: 'LABEL_NOT_FOUND', http_code: 404 });
    expect(statuses[3]).toMatchObject({ error_tag: 'ARGUMENT_MISSING', error_extra: { argument: 'object_id' } });
    expect(statuses[4]).toMatchObject({ error_tag: 'INVALID_TEMPID' });
    expect(statuses.slice(5, 8).map((status) => [status.error_tag, status.error_extra.argument])).toEqual([
      ['INVALID_ARGUMENT_VALUE', 'view_type'],
      ['INVALID_ARGUMENT_VALUE', 'view_mode'],
      ['INVALID_ARGUMENT_VALUE', 'calendar_settings'],
    ]);
    expect(statuses.slice(8, 10).map((status) => [status.error_tag, status.error_extra.argument])).toEqual([
      ['ARGUMENT_MISSING', 'view_type'],
      ['ARGUMENT_MISSING', 'view_type'],
    ]);
    expect(statuses[10]).toMatchObject({ error_tag: 'PROJECT_NOT_FOUND', error_extra: { argument: 'project_id' } });
    expect(statuses[11]).toMatchObject({ error_tag: 'ARGUMENT_MISSING', error_extra: { argument: 'project_id' } });

    // Each user's view options are their own: deleting "mine" leaves theirs.
    await run({ type: 'view_options_delete', args: { view_type: 'TODAY' } });
    const theirView = await theirs.sync({ sync_token: '*', resource_types: TYPES });
    expect(theirView.view_options).toEqual([{ ...UNSET, view_type: 'TODAY', view_mode: 'BOARD' }]);
    expect(theirView.project_view_options_defaults).toEqual([]);
    const mine = await full();
    expect(viewOf(mine.view_options, 'PROJECT', mapping['tp'])).toBeUndefined();
  });

  it('@doist/todoist-sdk 17 sets, merges, reads and deletes view options, all validated by the SDK', async () => {
    const fresh = await system.createAccount();
    const report = await runClient('todoist-sdk-view-options.mjs', { DOABLE_URL: system.url, DOABLE_TOKEN: fresh.token });
    expect(report.start).toEqual({ viewOptions: [], defaults: [] });
    expect(report.write.statuses).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(report.write.viewOptions).toEqual([
      {
        viewType: 'PROJECT',
        objectId: 'views',
        viewMode: 'BOARD',
        groupedBy: 'PRIORITY',
        sortedBy: 'DUE_DATE',
        sortOrder: 'DESC',
        filteredBy: null,
        showCompletedTasks: true,
        calendarSettings: { layout: 'MONTH', visibleDayCount: 7, color: 'LABEL' },
        // Property ids keep their API spelling (the SDK converts no key inside).
        propertySettings: { order: ['due', 'labels'], properties: { due: { is_hidden: true, width: 120 } } },
        isDeleted: false,
      },
      { viewType: 'TODAY', viewMode: 'LIST', groupedBy: null, sortedBy: null, sortOrder: null, filteredBy: null, showCompletedTasks: false, calendarSettings: null, propertySettings: null, isDeleted: false },
    ]);
    expect(report.write.defaults).toEqual([
      {
        projectId: 'views',
        viewMode: 'CALENDAR',
        groupedBy: null,
        sortedBy: null,
        sortOrder: null,
        filteredBy: 'p1',
        showCompletedTasks: false,
        calendarSettings: { layout: 'WEEK' },
        propertySettings: null,
        isDeleted: false,
      },
    ]);
    expect(report.merged).toEqual({ order: ['due', 'labels'], properties: { due: { is_hidden: true }, labels: { is_hidden: true } } });
    // The deleted TODAY view and the deleted project's view and defaults arrive as tombstones the SDK accepts.
    expect(report.changes).toEqual({
      viewOptions: [
        { viewType: 'PROJECT', isDeleted: true },
        { viewType: 'TODAY', isDeleted: true },
      ],
      defaults: [{ project: true, isDeleted: true }],
    });
    expect(report.after).toEqual([]);
  });
});
