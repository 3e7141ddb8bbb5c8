import { http } from '@doable/shared-testing';
import { HttpBrowser, logIn } from './support/oauth-flow';
import { type Account, MODES } from './support/system-view';
import { useSystem } from './support/use-system';

/**
 * Issue #11: input a client may send, but no statement can store, is a coded 400 at the edge of
 * the domain, never a 500; and nothing a client stored breaks the user's later reads.
 */
describe.each(MODES)('hardened input (%s)', (mode) => {
  const { system, account: me } = useSystem(mode);

  const call = (method: string, path: string, json?: unknown, account: Account = me) => http(system.url, method, path, { token: account.token, ...(json === undefined ? {} : { json }) });
  const sync = async (commands: Array<Record<string, unknown>>, account: Account = me) => {
    const answer = await call('POST', '/api/v1/sync', { commands: commands.map((command, index) => ({ uuid: `${Math.random()}-${index}`, ...command })) }, account);
    expect(answer.status).toBe(200);
    return Object.values(answer.body.sync_status as Record<string, any>).map((status) => (status === 'ok' ? 'ok' : [status.error_tag, status.http_code]));
  };
  const tagOf = (answer: { status: number; body: any }) => [answer.status, answer.body?.error_tag];
  const DATE_FILTERS = ['today', 'overdue', '7 days', 'due before: next monday'];
  const filterReads = () =>
    Promise.all(
      DATE_FILTERS.flatMap((filter) => [
        call('GET', `/api/v1/tasks/filter?query=${encodeURIComponent(filter)}`),
        call('GET', `/rest/v2/tasks?filter=${encodeURIComponent(filter)}`),
        call('GET', `/rest/v1/tasks?filter=${encodeURIComponent(filter)}`),
      ]).map(async (answer) => (await answer).status),
    );

  describe('dates outside 0001-01-01 .. 9999-12-31', () => {
    it('are refused by quick add, REST and sync, with INVALID_ARGUMENT_VALUE, also for a task:add-only token', async () => {
      const addOnly = await system.createScopedToken(me.userId, ['task:add']);
      const quick = await http(system.url, 'POST', '/api/v1/tasks/quick', { token: addOnly, json: { text: 'x 0000-01-01' } });
      const rest = await call('POST', '/rest/v2/tasks', { content: 'year zero', due_date: '0000-01-01' });
      const restDatetime = await call('POST', '/api/v1/tasks', { content: 'year zero', due_datetime: '0000-06-01T10:00:00Z' });
      const deadline = await call('POST', '/api/v1/tasks', { content: 'year zero', deadline_date: '0000-01-01' });
      expect([rest, restDatetime, deadline].map(tagOf)).toEqual(Array(3).fill([400, 'INVALID_ARGUMENT_VALUE']));
      // Quick add reads what is not a date as words of the task, as it does with "2026-02-30".
      expect({ status: quick.status, content: quick.body.content, due: quick.body.due }).toEqual({ status: 200, content: 'x 0000-01-01', due: null });
      expect(
        await sync([
          { type: 'item_add', args: { content: 'year zero', due: { string: '0000-01-01' } } },
          { type: 'item_add', args: { content: 'year zero', due: { date: '0000-01-01' } } },
          { type: 'item_add', args: { content: 'far', due: { string: 'in 9999 years' } } },
          { type: 'item_complete', args: { id: '1', completed_at: '0000-01-01T00:00:00Z' } },
        ]),
      ).toEqual(Array(4).fill(['INVALID_ARGUMENT_VALUE', 400]));
      const completed = await call('GET', '/api/v1/tasks/completed/by_completion_date?since=0000-01-01T00:00:00Z&until=0000-02-01T00:00:00Z');
      const filter = await call('GET', `/api/v1/tasks/filter?query=${encodeURIComponent('due before: 0000-01-01')}`);
      expect([completed, filter].map(tagOf)).toEqual(Array(2).fill([400, 'INVALID_ARGUMENT_VALUE']));
      expect(await filterReads()).toEqual(Array(DATE_FILTERS.length * 3).fill(200));
    });

    it('already stored (before the rule) does not break the date filters: the row reads as undated', async () => {
      expect(await sync([{ type: 'item_add', temp_id: 'old', args: { content: 'stored in year zero', due: { string: 'tomorrow' } } }])).toEqual(['ok']);
      await system.sql(`UPDATE sync.items SET due = jsonb_set(due, '{date}', '"0000-01-01"') WHERE content = 'stored in year zero'`);
      expect(await filterReads()).toEqual(Array(DATE_FILTERS.length * 3).fill(200));
      const noDate = await call('GET', `/api/v1/tasks/filter?query=${encodeURIComponent('overdue')}`);
      expect(noDate.body.results.map((task: any) => task.content)).not.toContain('stored in year zero');
    });
  });

  describe('a user_update is all or nothing', () => {
    const OLD = 'correct horse battery staple';
    const NEW = 'a brand new passphrase';

    it('refuses a bad full_name before auth-oauth changes the password: the old one still logs in', async () => {
      const guarded = await system.createAccount({ password: OLD });
      expect(await sync([{ type: 'user_update', args: { password: NEW, current_password: OLD, full_name: 'a\u0000b' } }], guarded)).toEqual([['INVALID_ARGUMENT_VALUE', 400]]);
      expect(await sync([{ type: 'user_update', args: { password: NEW, current_password: OLD, start_page: 'bogus' } }], guarded)).toEqual([['INVALID_ARGUMENT_VALUE', 400]]);
      await expect(logIn(new HttpBrowser(system.url), guarded.email, OLD)).resolves.toBeUndefined();
      await expect(logIn(new HttpBrowser(system.url), guarded.email, NEW)).rejects.toThrow(/log-in/);
      const user = (await call('POST', '/api/v1/sync', { sync_token: '*', resource_types: ['user'] }, guarded)).body.user;
      expect(user).toMatchObject({ has_password: true, full_name: 'Test User' });
    });

    it('sets has_password once a password was set, so clients ask for current_password next time', async () => {
      const fresh = await system.createAccount();
      const before = (await call('POST', '/api/v1/sync', { sync_token: '*', resource_types: ['user'] }, fresh)).body;
      expect(before.user.has_password).toBe(false);
      expect(await sync([{ type: 'user_update', args: { password: NEW } }], fresh)).toEqual(['ok']);
      const changes = (await call('POST', '/api/v1/sync', { sync_token: before.sync_token, resource_types: ['user'] }, fresh)).body;
      expect(changes.user.has_password).toBe(true);
      await expect(logIn(new HttpBrowser(system.url), fresh.email, NEW)).resolves.toBeUndefined();
    });

    it('refuses a start_page the spec does not list, and takes one it does', async () => {
      expect(await sync([{ type: 'user_update', args: { start_page: 'bogus' } }, { type: 'user_update', args: { start_page: 'next7days' } }])).toEqual([['INVALID_ARGUMENT_VALUE', 400], 'ok']);
    });
  });

  describe('text, ids and integers no column holds', () => {
    it('refuses a NUL or a lone surrogate in any text, on every surface, and stores nothing', async () => {
      const before = (await call('POST', '/api/v1/sync', { sync_token: '*', resource_types: ['items', 'projects'] })).body;
      const answers = await Promise.all([
        call('POST', '/rest/v2/tasks', { content: 'a\u0000b' }),
        call('POST', '/api/v1/tasks', { content: 'ok', description: '\ud800' }),
        call('POST', '/rest/v1/projects', { name: 'x\udc00y' }),
        call('POST', '/api/v1/labels', { name: 'nul\u0000label' }),
        call('POST', '/api/v1/tasks/quick', { text: 'buy milk\u0000 tomorrow' }),
        call('GET', `/api/v1/tasks/filter?query=${encodeURIComponent('search: a\u0000')}`),
        call('GET', `/api/v1/tasks/completed/by_completion_date?since=2026-01-01T00:00:00Z&until=2026-02-01T00:00:00Z&filter_query=${encodeURIComponent('#\u0000')}`),
      ]);
      expect(answers.map(tagOf)).toEqual(Array(answers.length).fill([400, 'INVALID_ARGUMENT_VALUE']));
      expect(
        await sync([
          { type: 'item_add', args: { content: 'a\u0000b' } },
          { type: 'project_add', args: { name: '\ud800' } },
          { type: 'label_add', args: { name: 'fine' } },
          { type: 'note_add', args: { item_id: '1', content: 'x', file_attachment: { file_name: 'a\u0000' } } },
        ]),
      ).toEqual([['INVALID_ARGUMENT_VALUE', 400], ['INVALID_ARGUMENT_VALUE', 400], 'ok', ['INVALID_ARGUMENT_VALUE', 400]]);
      const after = (await call('POST', '/api/v1/sync', { sync_token: before.sync_token, resource_types: ['items', 'projects'] })).body;
      expect({ items: after.items, projects: after.projects }).toEqual({ items: [], projects: [] });
    });

    it('treats ids named like Object.prototype members and ids past the bigint range as unknown, never as 500', async () => {
      const answers = await Promise.all(
        ['__proto__', 'constructor', 'toString', 'valueOf', '9223372036854775808', '99999999999999999999'].flatMap((id) => [
          call('POST', `/rest/v2/tasks/${id}`, { content: 'x' }),
          call('GET', `/rest/v2/tasks/${id}`),
          call('DELETE', `/api/v1/tasks/${id}`),
        ]),
      );
      for (const answer of answers) {
        expect(answer.status).toBeGreaterThanOrEqual(400);
        expect(answer.status).toBeLessThan(500);
        expect(typeof answer.body.error_tag).toBe('string');
      }
      const statuses = await sync([
        { type: 'item_update', args: { id: '__proto__', content: 'x' } },
        { type: 'item_add', temp_id: 'constructor', args: { content: 'temp id named constructor' } },
        { type: 'item_update', args: { id: 'constructor', content: 'renamed through its temp id' } },
        { type: 'item_delete', args: { id: '9223372036854775808' } },
      ]);
      expect(statuses[0]).toEqual(['INVALID_TEMPID', 400]);
      expect(statuses.slice(1, 3)).toEqual(['ok', 'ok']);
      expect(statuses[3][1]).toBeGreaterThanOrEqual(400);
      expect(statuses[3][1]).toBeLessThan(500);
    });

    it('refuses integers past a 32-bit column', async () => {
      const project = await call('POST', '/api/v1/projects', { name: 'orders' });
      const section = await call('POST', '/api/v1/sections', { name: 's', project_id: project.body.id, order: 2147483648 });
      const task = await call('POST', '/rest/v2/tasks', { content: 't', order: -2147483649 });
      expect([section, task].map(tagOf)).toEqual(Array(2).fill([400, 'INVALID_ARGUMENT_VALUE']));
      expect(await sync([{ type: 'item_reorder', args: { items: [{ id: '1', child_order: 2147483648 }] } }, { type: 'update_goals', args: { daily_goal: 2 ** 40 } }])).toEqual(
        Array(2).fill(['INVALID_ARGUMENT_VALUE', 400]),
      );
    });
  });
});
