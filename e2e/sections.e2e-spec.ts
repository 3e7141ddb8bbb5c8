import { syncSession } from './support/sync-session';
import { MODES } from './support/system-view';
import { useSystem } from './support/use-system';

describe.each(MODES)('sections (%s)', (mode) => {
  const { system, account } = useSystem(mode);

  const { sync, run } = syncSession(() => system, () => account, 's');
  const full = () => sync({ sync_token: '*', resource_types: ['sections', 'items'] });

  it('adds sections and tasks into them by temp id, in both dialect shapes', async () => {
    const { statuses, mapping } = await run(
      { type: 'project_add', temp_id: 'p', args: { name: 'Kitchen' } },
      { type: 'section_add', temp_id: 's', args: { name: 'To buy', project_id: 'p' } },
      { type: 'item_add', temp_id: 'i', args: { content: 'Flour', section_id: 's' } },
    );
    expect(statuses).toEqual(['ok', 'ok', 'ok']);
    const body = await full();
    expect(body.sections).toEqual([expect.objectContaining({ id: mapping['s'], name: 'To buy', project_id: mapping['p'], is_collapsed: false, description: null, archived_at: null })]);
    expect(body.items).toEqual([expect.objectContaining({ id: mapping['i'], section_id: mapping['s'], project_id: mapping['p'] })]);
    const v9 = await sync({ sync_token: '*', resource_types: ['sections'] }, '/sync/v9/sync');
    expect(v9.sections[0]).toHaveProperty('collapsed', false);
    expect(v9.sections[0]).not.toHaveProperty('is_collapsed');
  });

  it('updates, reorders and moves a section with its tasks', async () => {
    const { mapping } = await run(
      { type: 'project_add', temp_id: 'from', args: { name: 'From' } },
      { type: 'project_add', temp_id: 'to', args: { name: 'To' } },
      { type: 'section_add', temp_id: 'sec', args: { name: 'Moving', project_id: 'from' } },
      { type: 'item_add', temp_id: 'task', args: { content: 'Box', section_id: 'sec' } },
    );
    const { statuses } = await run(
      { type: 'section_update', args: { id: mapping['sec'], name: 'Moved', is_collapsed: true } },
      { type: 'section_reorder', args: { sections: [{ id: mapping['sec'], section_order: 5 }] } },
      { type: 'section_move', args: { id: mapping['sec'], project_id: mapping['to'] } },
    );
    expect(statuses).toEqual(['ok', 'ok', 'ok']);
    const body = await full();
    expect(body.sections.find((section: any) => section.id === mapping['sec'])).toMatchObject({ name: 'Moved', is_collapsed: true, project_id: mapping['to'] });
    expect(body.items.find((item: any) => item.id === mapping['task'])).toMatchObject({ project_id: mapping['to'], section_id: mapping['sec'] });
  });

  it('archives a section (completing its tasks), unarchives it, and deletes it with its tasks', async () => {
    const { mapping } = await run(
      { type: 'project_add', temp_id: 'p', args: { name: 'Archive test' } },
      { type: 'section_add', temp_id: 'a', args: { name: 'Done soon', project_id: 'p' } },
      { type: 'item_add', temp_id: 't', args: { content: 'Will complete', section_id: 'a' } },
      { type: 'section_add', temp_id: 'd', args: { name: 'Doomed', project_id: 'p' } },
      { type: 'item_add', temp_id: 'u', args: { content: 'Will vanish', section_id: 'd' } },
    );
    const token = (await full()).sync_token;
    await run({ type: 'section_archive', args: { id: mapping['a'] } }, { type: 'section_delete', args: { id: mapping['d'] } });
    const changes = await sync({ sync_token: token, resource_types: ['sections', 'items'] });
    expect(changes.sections.find((section: any) => section.id === mapping['a'])).toMatchObject({ is_archived: true, archived_at: expect.any(String) });
    expect(changes.sections.find((section: any) => section.id === mapping['d'])).toMatchObject({ is_deleted: true });
    expect(changes.items.find((item: any) => item.id === mapping['t'])).toMatchObject({ checked: true });
    expect(changes.items.find((item: any) => item.id === mapping['u'])).toMatchObject({ is_deleted: true });
    const after = await full();
    expect(after.sections.map((section: any) => section.id)).not.toContain(mapping['a']);
    await run({ type: 'section_unarchive', args: { id: mapping['a'] } });
    expect((await full()).sections.map((section: any) => section.id)).toContain(mapping['a']);
  });

  it('moves a task into a section of another project', async () => {
    const { mapping } = await run(
      { type: 'project_add', temp_id: 'p', args: { name: 'Target' } },
      { type: 'section_add', temp_id: 's', args: { name: 'Target section', project_id: 'p' } },
      { type: 'item_add', temp_id: 't', args: { content: 'Traveller' } },
    );
    await run({ type: 'item_move', args: { id: mapping['t'], section_id: mapping['s'] } });
    expect((await full()).items.find((item: any) => item.id === mapping['t'])).toMatchObject({ section_id: mapping['s'], project_id: mapping['p'] });
  });

  it('answers SECTION_NOT_FOUND for unknown or foreign sections', async () => {
    const { statuses } = await run({ type: 'section_update', args: { id: '9999999999', name: 'x' } }, { type: 'item_add', args: { content: 'x', section_id: '9999999999' } });
    for (const status of statuses) expect(status).toMatchObject({ error_tag: 'SECTION_NOT_FOUND', http_code: 404 });
  });
});
