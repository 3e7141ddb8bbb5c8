import { http } from '@doable/shared-testing';
import { syncSession } from './support/sync-session';
import { MODES } from './support/system-view';
import { useSystem } from './support/use-system';

/** Sync v9's archive listings: `projects/get_archived` and `archive/sections`. */
describe.each(MODES)('v9 archived listings (%s)', (mode) => {
  const { system, account } = useSystem(mode);
  let ids: Record<string, string> = {};
  const { run } = syncSession(() => system, () => account, 'arch');

  beforeAll(async () => {
    const { mapping, statuses } = await run(
      { type: 'project_add', temp_id: 'kept', args: { name: 'Kept' } },
      { type: 'project_add', temp_id: 'gone', args: { name: 'Gone' } },
      { type: 'section_add', temp_id: 'old', args: { name: 'Old', project_id: 'kept' } },
      { type: 'section_add', temp_id: 'new', args: { name: 'New', project_id: 'kept' } },
      { type: 'project_archive', args: { id: 'gone' } },
      { type: 'section_archive', args: { id: 'old' } },
    );
    expect(statuses.every((status) => status === 'ok')).toBe(true);
    ids = mapping;
  });

  it('lists archived projects as v9 projects', async () => {
    for (const method of ['GET', 'POST']) {
      const { status, body } = await http(system.url, method, '/sync/v9/projects/get_archived', { token: account.token });
      expect(status).toBe(200);
      expect(body).toEqual([expect.objectContaining({ id: ids['gone'], name: 'Gone', is_archived: true, collapsed: false })]);
    }
  });

  it("lists a project's archived sections, paged", async () => {
    const { status, body } = await http(system.url, 'GET', `/sync/v9/archive/sections?project_id=${ids['kept']}`, { token: account.token });
    expect(status).toBe(200);
    expect(body).toEqual({ sections: [expect.objectContaining({ id: ids['old'], name: 'Old', is_archived: true })], has_more: false, total: 1 });
    const form = await http(system.url, 'POST', '/sync/v9/archive/sections', { token: account.token, form: { project_id: ids['kept'], limit: '1' } });
    expect(form.body.sections).toHaveLength(1);
  });

  it('answers coded errors for a missing, foreign or malformed project and a bad limit', async () => {
    const stranger = await system.createAccount();
    const missing = await http(system.url, 'GET', '/sync/v9/archive/sections', { token: account.token });
    expect([missing.status, missing.body.error_tag]).toEqual([400, 'ARGUMENT_MISSING']);
    const foreign = await http(system.url, 'GET', `/sync/v9/archive/sections?project_id=${ids['kept']}`, { token: stranger.token });
    expect([foreign.status, foreign.body.error_tag]).toEqual([404, 'PROJECT_NOT_FOUND']);
    expect((await http(system.url, 'GET', '/sync/v9/projects/get_archived', { token: stranger.token })).body).toEqual([]);
    const badLimit = await http(system.url, 'GET', '/sync/v9/projects/get_archived?limit=9999', { token: account.token });
    expect([badLimit.status, badLimit.body.error_extra?.argument]).toEqual([400, 'limit']);
  });
});
