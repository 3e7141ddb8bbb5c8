import { syncSession } from './support/sync-session';
import { MODES } from './support/system-view';
import { useSystem } from './support/use-system';

/** The completed_info resource: completed counts per project, section and parent task, full and incremental. */
describe.each(MODES)('completed_info (%s)', (mode) => {
  const { system, account } = useSystem(mode);
  let ids: Record<string, string> = {};
  const { sync, run } = syncSession(() => system, () => account, 'ci');

  beforeAll(async () => {
    const { mapping, statuses } = await run(
      { type: 'project_add', temp_id: 'p', args: { name: 'Counted' } },
      { type: 'section_add', temp_id: 's', args: { name: 'Doing', project_id: 'p' } },
      { type: 'section_add', temp_id: 'old', args: { name: 'Old', project_id: 'p' } },
      { type: 'item_add', temp_id: 'a', args: { content: 'in section', project_id: 'p', section_id: 's' } },
      { type: 'item_add', temp_id: 'parent', args: { content: 'parent', project_id: 'p' } },
      { type: 'item_add', temp_id: 'child', args: { content: 'child', parent_id: 'parent' } },
      { type: 'item_add', temp_id: 'other', args: { content: 'other child', parent_id: 'parent' } },
    );
    expect(statuses.every((status) => status === 'ok')).toBe(true);
    ids = mapping;
  });

  const infoOf = (body: { completed_info: Array<Record<string, unknown>> }) => body.completed_info;

  it('answers nothing before anything is completed', async () => {
    const body = await sync({ sync_token: '*', resource_types: ['completed_info'] });
    expect(infoOf(body)).toEqual([]);
  });

  it('counts history per project and section, checked subtasks per parent, archived sections per project', async () => {
    const before = await sync({ sync_token: '*', resource_types: ['completed_info'] });
    const { statuses } = await run(
      { type: 'item_complete', args: { id: ids['a'] } },
      { type: 'item_complete', args: { id: ids['child'] } },
      { type: 'section_archive', args: { id: ids['old'] } },
    );
    expect(statuses).toEqual(['ok', 'ok', 'ok']);
    const full = await sync({ sync_token: '*', resource_types: ['completed_info'] });
    // The completed subtask counts for its project too (it is in history, under its parent).
    expect(infoOf(full)).toEqual(
      expect.arrayContaining([
        { project_id: ids['p'], completed_items: 2, archived_sections: 1 },
        { section_id: ids['s'], id: ids['s'], completed_items: 1 },
        { item_id: ids['parent'], id: ids['parent'], completed_items: 1 },
      ]),
    );
    // The incremental answer names what the changes touched, with fresh counts.
    const changes = await sync({ sync_token: before.sync_token, resource_types: ['completed_info'] });
    expect(infoOf(changes)).toEqual(expect.arrayContaining([{ project_id: ids['p'], completed_items: 2, archived_sections: 1 }]));
  });

  it('sends zeros when completions are undone, so clients drop their counts', async () => {
    const before = await sync({ sync_token: '*', resource_types: ['completed_info'] });
    expect((await run({ type: 'item_uncomplete', args: { id: ids['a'] } })).statuses).toEqual(['ok']);
    const changes = await sync({ sync_token: before.sync_token, resource_types: ['completed_info'] });
    expect(infoOf(changes)).toEqual(
      expect.arrayContaining([
        { project_id: ids['p'], completed_items: 1, archived_sections: 1 },
        { section_id: ids['s'], id: ids['s'], completed_items: 0 },
      ]),
    );
    const unchanged = await sync({ sync_token: changes.sync_token, resource_types: ['completed_info'] });
    expect(infoOf(unchanged)).toEqual([]);
  });

  it("never counts another user's projects", async () => {
    const stranger = await system.createAccount();
    const theirs = await sync({ sync_token: '*', resource_types: ['completed_info'] }, '/api/v1/sync', stranger.token);
    expect(infoOf(theirs)).toEqual([]);
  });
});
