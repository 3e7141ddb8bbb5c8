import { syncSession } from './support/sync-session';
import { MODES } from './support/system-view';
import { useSystem } from './support/use-system';

describe.each(MODES)('projects (%s)', (mode) => {
  const { system, account } = useSystem(mode);

  const { sync, run } = syncSession(() => system, () => account, 'p');
  const full = () => sync({ sync_token: '*', resource_types: ['projects', 'items'] });

  it('updates, nests and reorders projects; refuses cycles', async () => {
    const { mapping } = await run({ type: 'project_add', temp_id: 'a', args: { name: 'Alpha' } }, { type: 'project_add', temp_id: 'b', args: { name: 'Beta' } });
    const { statuses } = await run(
      { type: 'project_update', args: { id: mapping['a'], name: 'Alpha 2', color: 'blue', is_favorite: true, is_collapsed: true } },
      { type: 'project_move', args: { id: mapping['b'], parent_id: mapping['a'] } },
      { type: 'project_move', args: { id: mapping['a'], parent_id: mapping['b'] } },
      { type: 'project_reorder', args: { projects: [{ id: mapping['a'], child_order: 7 }] } },
    );
    expect(statuses.slice(0, 2)).toEqual(['ok', 'ok']);
    expect(statuses[2]).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE' });
    expect(statuses[3]).toBe('ok');
    const projects = (await full()).projects as any[];
    expect(projects.find((project) => project.id === mapping['a'])).toMatchObject({ name: 'Alpha 2', color: 'blue', is_favorite: true, is_collapsed: true, child_order: 7 });
    expect(projects.find((project) => project.id === mapping['b'])).toMatchObject({ parent_id: mapping['a'] });
  });

  it('archives a project out of the full sync and shows the change incrementally; unarchives it back', async () => {
    const { mapping } = await run({ type: 'project_add', temp_id: 'arch', args: { name: 'Old stuff' } });
    const token = (await full()).sync_token;
    await run({ type: 'project_archive', args: { id: mapping['arch'] } });
    const changes = await sync({ sync_token: token, resource_types: ['projects'] });
    expect(changes.projects).toEqual([expect.objectContaining({ id: mapping['arch'], is_archived: true })]);
    expect(((await full()).projects as any[]).map((project) => project.id)).not.toContain(mapping['arch']);
    await run({ type: 'project_unarchive', args: { id: mapping['arch'] } });
    expect(((await full()).projects as any[]).map((project) => project.id)).toContain(mapping['arch']);
  });

  it('deletes a project with its sub-projects and tasks, as tombstones', async () => {
    const { mapping } = await run(
      { type: 'project_add', temp_id: 'gone', args: { name: 'Doomed' } },
      { type: 'project_add', temp_id: 'gonechild', args: { name: 'Doomed child', parent_id: 'gone' } },
      { type: 'item_add', temp_id: 'gonetask', args: { content: 'Doomed task', project_id: 'gonechild' } },
    );
    const token = (await full()).sync_token;
    await run({ type: 'project_delete', args: { id: mapping['gone'] } });
    const changes = await sync({ sync_token: token, resource_types: ['projects', 'items'] });
    const deleted = (changes.projects as any[]).map((project) => [project.name, project.is_deleted]);
    expect(deleted.sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual([
      ['Doomed', true],
      ['Doomed child', true],
    ]);
    expect(changes.items).toEqual([expect.objectContaining({ id: mapping['gonetask'], is_deleted: true })]);
    const after = await full();
    expect((after.items as any[]).map((item) => item.id)).not.toContain(mapping['gonetask']);
  });

  it('protects the Inbox and answers PROJECT_NOT_FOUND for unknown projects', async () => {
    const inboxId = ((await full()).projects as any[]).find((project) => project.inbox_project).id;
    const { statuses } = await run(
      { type: 'project_delete', args: { id: inboxId } },
      { type: 'project_archive', args: { id: inboxId } },
      { type: 'project_update', args: { id: '123456789', name: 'Ghost' } },
    );
    expect(statuses[0]).toMatchObject({ error_tag: 'FORBIDDEN', http_code: 403 });
    expect(statuses[1]).toMatchObject({ error_tag: 'FORBIDDEN', http_code: 403 });
    expect(statuses[2]).toMatchObject({ error_tag: 'PROJECT_NOT_FOUND', http_code: 404 });
  });
});
