import { http } from '@doable/shared-testing';
import { type Account, MODES } from './support/system-view';
import { useSystem } from './support/use-system';

const MIB = 1024 * 1024;

/**
 * The edges of the REST surfaces the official clients do not reach on their own: another
 * user's ids on every resource and verb (a 404, and nothing changes), the 1 MiB body limit,
 * quick add retried with the same X-Request-Id, and the completed-history filter's error paths.
 */
describe.each(MODES)('REST boundaries (%s)', (mode) => {
  const { system, accounts: [me, them] } = useSystem(mode, { accounts: 2 });

  const as = (account: Account) => ({
    get: (path: string) => http(system.url, 'GET', path, { token: account.token }),
    post: (path: string, json: unknown = {}, headers: Record<string, string> = {}) => http(system.url, 'POST', path, { token: account.token, json, headers }),
    del: (path: string) => http(system.url, 'DELETE', path, { token: account.token }),
  });

  async function created(response: Promise<{ status: number; body: any }>): Promise<string> {
    const { status, body } = await response;
    expect(status).toBe(200);
    return body.id as string;
  }

  describe("another user's ids", () => {
    const theirs: Record<string, string> = {};
    const mine: Record<string, string> = {};

    beforeAll(async () => {
      const owner = as(them);
      theirs['project'] = await created(owner.post('/rest/v2/projects', { name: 'Their project' }));
      theirs['section'] = await created(owner.post('/rest/v2/sections', { name: 'Their section', project_id: theirs['project'] }));
      theirs['label'] = await created(owner.post('/rest/v2/labels', { name: 'theirlabel' }));
      theirs['task'] = await created(owner.post('/rest/v2/tasks', { content: 'Their task', project_id: theirs['project'] }));
      theirs['comment'] = await created(owner.post('/rest/v2/comments', { task_id: theirs['task'], content: 'Their comment' }));
      mine['project'] = await created(as(me).post('/rest/v2/projects', { name: 'My project' }));
      mine['task'] = await created(as(me).post('/rest/v2/tasks', { content: 'My task', project_id: mine['project'] }));
    });

    const notFound = async (response: Promise<{ status: number; body: any }>, tag: string) => {
      const { status, body } = await response;
      expect({ status, tag: body?.error_tag }).toEqual({ status: 404, tag });
    };

    it.each(['/rest/v1', '/rest/v2', '/api/v1'])('%s: their section is not found to read, update or delete', async (prefix) => {
      const api = as(me);
      await notFound(api.get(`${prefix}/sections/${theirs['section']}`), 'SECTION_NOT_FOUND');
      await notFound(api.post(`${prefix}/sections/${theirs['section']}`, { name: 'mine now' }), 'SECTION_NOT_FOUND');
      await notFound(api.del(`${prefix}/sections/${theirs['section']}`), 'SECTION_NOT_FOUND');
      if (prefix === '/api/v1') await notFound(api.post(`${prefix}/sections/${theirs['section']}/archive`), 'SECTION_NOT_FOUND');
      expect((await as(them).get(`/rest/v2/sections/${theirs['section']}`)).body).toMatchObject({ name: 'Their section' });
    });

    it.each(['/rest/v1', '/rest/v2', '/api/v1'])('%s: their label is not found to read, update or delete', async (prefix) => {
      const api = as(me);
      await notFound(api.get(`${prefix}/labels/${theirs['label']}`), 'LABEL_NOT_FOUND');
      await notFound(api.post(`${prefix}/labels/${theirs['label']}`, { name: 'minenow' }), 'LABEL_NOT_FOUND');
      await notFound(api.del(`${prefix}/labels/${theirs['label']}`), 'LABEL_NOT_FOUND');
      expect((await as(them).get(`/rest/v2/labels/${theirs['label']}`)).body).toMatchObject({ name: 'theirlabel' });
    });

    it.each(['/rest/v1', '/rest/v2', '/api/v1'])('%s: their comment is not found by id, to update or to delete', async (prefix) => {
      const api = as(me);
      await notFound(api.get(`${prefix}/comments/${theirs['comment']}`), 'NOTE_NOT_FOUND');
      await notFound(api.post(`${prefix}/comments/${theirs['comment']}`, { content: 'mine now' }), 'NOTE_NOT_FOUND');
      await notFound(api.del(`${prefix}/comments/${theirs['comment']}`), 'NOTE_NOT_FOUND');
      expect((await as(them).get(`/rest/v2/comments/${theirs['comment']}`)).body).toMatchObject({ content: 'Their comment' });
    });

    it.each(['/rest/v1', '/rest/v2', '/api/v1'])('%s: their project is not found to update or delete', async (prefix) => {
      const api = as(me);
      await notFound(api.post(`${prefix}/projects/${theirs['project']}`, { name: 'mine now' }), 'PROJECT_NOT_FOUND');
      await notFound(api.del(`${prefix}/projects/${theirs['project']}`), 'PROJECT_NOT_FOUND');
      expect((await as(them).get(`/rest/v2/projects/${theirs['project']}`)).body).toMatchObject({ name: 'Their project' });
    });

    it('api/v1: their project is not found to archive, unarchive, read in full or join', async () => {
      const api = as(me);
      await notFound(api.post(`/api/v1/projects/${theirs['project']}/archive`), 'PROJECT_NOT_FOUND');
      await notFound(api.post(`/api/v1/projects/${theirs['project']}/unarchive`), 'PROJECT_NOT_FOUND');
      await notFound(api.get(`/api/v1/projects/${theirs['project']}/full`), 'PROJECT_NOT_FOUND');
      await notFound(api.post(`/api/v1/projects/${theirs['project']}/join`), 'PROJECT_NOT_FOUND');
      expect((await as(them).get(`/api/v1/projects/${theirs['project']}`)).body).toMatchObject({ name: 'Their project', is_archived: false });
      expect((await api.get(`/api/v1/id_mappings/projects/${theirs['project']}`)).body).toEqual([]);
    });

    it('api/v1: a task cannot be moved into their project, their section or under their task', async () => {
      const api = as(me);
      await notFound(api.post(`/api/v1/tasks/${mine['task']}/move`, { project_id: theirs['project'] }), 'PROJECT_NOT_FOUND');
      await notFound(api.post(`/api/v1/tasks/${mine['task']}/move`, { section_id: theirs['section'] }), 'SECTION_NOT_FOUND');
      await notFound(api.post(`/api/v1/tasks/${mine['task']}/move`, { parent_id: theirs['task'] }), 'ITEM_NOT_FOUND');
      expect((await api.get(`/api/v1/tasks/${mine['task']}`)).body).toMatchObject({ project_id: mine['project'], section_id: null, parent_id: null });
      const theirTasks = (await as(them).get(`/api/v1/tasks?project_id=${theirs['project']}`)).body.results as Array<{ content: string }>;
      expect(theirTasks.map((task) => task.content)).toEqual(['Their task']);
    });
  });

  describe('the 1 MiB body limit', () => {
    /** A task body padded (with a key REST ignores) to exactly `bytes` bytes of JSON. */
    function bodyOf(bytes: number): string {
      const frame = JSON.stringify({ content: 'Big body', padding: '' });
      return JSON.stringify({ content: 'Big body', padding: 'lorem ipsum '.repeat(MIB).slice(0, bytes - frame.length) });
    }

    it('accepts a body just under 1 MiB', async () => {
      const raw = bodyOf(MIB - 64);
      expect(Buffer.byteLength(raw)).toBe(MIB - 64);
      const response = await http(system.url, 'POST', '/rest/v2/tasks', { token: me.token, raw, headers: { 'content-type': 'application/json' } });
      expect({ status: response.status, content: response.body?.content }).toEqual({ status: 200, content: 'Big body' });
    });

    it.each(['/rest/v2/tasks', '/api/v1/tasks', '/rest/v1/projects'])('answers a body over 1 MiB on %s with a coded 413, and adds nothing', async (path) => {
      const raw = bodyOf(MIB + 1);
      expect(Buffer.byteLength(raw)).toBe(MIB + 1);
      const response = await http(system.url, 'POST', path, { token: me.token, raw, headers: { 'content-type': 'application/json' } });
      expect({ status: response.status, tag: response.body?.error_tag }).toEqual({ status: 413, tag: 'PAYLOAD_TOO_LARGE' });
      const found = await as(me).get(`/api/v1/tasks/filter?query=${encodeURIComponent('search: Big body')}`);
      expect(found.body.results).toHaveLength(1);
    });
  });

  describe('quick add retried with the same X-Request-Id', () => {
    it.each([
      ['/api/v1/tasks/quick', 'api'],
      ['/sync/v9/quick/add', 'v9'],
    ])('%s answers the same task and adds nothing', async (path, tag) => {
      const api = as(me);
      const requestId = `${mode}-quick-${tag}-${Date.now()}`;
      const text = `Quick once ${tag} p2 @quick${tag} #My project`;
      const first = await api.post(path, { text, note: 'the note' }, { 'X-Request-Id': requestId });
      const replay = await api.post(path, { text, note: 'the note' }, { 'X-Request-Id': requestId });
      expect(first.status).toBe(200);
      expect(replay.status).toBe(200);
      expect(replay.body).toEqual(first.body);
      const other = await api.post(path, { text }, { 'X-Request-Id': `${requestId}-2` });
      expect(other.body.id).not.toBe(first.body.id);
      const copies = (await api.get(`/api/v1/tasks/filter?query=${encodeURIComponent(`search: Quick once ${tag}`)}`)).body.results as Array<{ id: string; note_count?: number }>;
      expect(copies.map((task) => task.id).sort()).toEqual([first.body.id, other.body.id].sort());
      const comments = (await api.get(`/api/v1/comments?task_id=${first.body.id}`)).body.results as unknown[];
      expect(comments).toHaveLength(1);
    });

    it('answers a replay with meta the same way', async () => {
      const api = as(me);
      const requestId = `${mode}-quick-meta-${Date.now()}`;
      const first = await api.post('/api/v1/tasks/quick', { text: 'Quick meta tomorrow', meta: true }, { 'X-Request-Id': requestId });
      const replay = await api.post('/api/v1/tasks/quick', { text: 'Quick meta tomorrow', meta: true }, { 'X-Request-Id': requestId });
      expect(first.body.meta).toMatchObject({ text: 'Quick meta tomorrow', content: 'Quick meta' });
      expect(replay.body).toEqual(first.body);
    });

    it('refuses an X-Request-Id a different request already used', async () => {
      const api = as(me);
      const requestId = `${mode}-quick-reuse-${Date.now()}`;
      expect((await api.post('/api/v1/tasks', { content: 'Plain add' }, { 'X-Request-Id': requestId })).status).toBe(200);
      const reused = await api.post('/api/v1/tasks/quick', { text: 'Quick reuse' }, { 'X-Request-Id': requestId });
      expect({ status: reused.status, argument: reused.body?.error_extra?.argument }).toEqual({ status: 400, argument: 'X-Request-Id' });
      const found = (await api.get(`/api/v1/tasks/filter?query=${encodeURIComponent('search: Quick reuse')}`)).body.results as unknown[];
      expect(found).toHaveLength(0);
      // and the other way round: a REST create after a quick add under the same id
      const quickId = `${mode}-quick-first-${Date.now()}`;
      expect((await api.post('/api/v1/tasks/quick', { text: 'Quick first' }, { 'X-Request-Id': quickId })).status).toBe(200);
      const create = await api.post('/api/v1/tasks', { content: 'Created second' }, { 'X-Request-Id': quickId });
      expect({ status: create.status, argument: create.body?.error_extra?.argument }).toEqual({ status: 400, argument: 'X-Request-Id' });
      expect((await api.get(`/api/v1/tasks/filter?query=${encodeURIComponent('search: Created second')}`)).body.results).toHaveLength(0);
    });

    it('keeps replays per user: the same X-Request-Id from another user is a new quick add', async () => {
      const requestId = `${mode}-quick-users-${Date.now()}`;
      const mine = await as(me).post('/api/v1/tasks/quick', { text: 'Quick per user' }, { 'X-Request-Id': requestId });
      const theirs = await as(them).post('/api/v1/tasks/quick', { text: 'Quick per user' }, { 'X-Request-Id': requestId });
      expect(theirs.status).toBe(200);
      expect(theirs.body.id).not.toBe(mine.body.id);
      expect(theirs.body.user_id).not.toBe(mine.body.user_id);
    });
  });

  describe('completed history filters', () => {
    const since = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 19);
    const until = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 19);

    it.each([
      ['a filter that does not parse', 'filter_query=(((', 'filter_query'],
      ['an unsupported filter_lang', 'filter_query=p1&filter_lang=xx', 'filter_lang'],
      ['a date the filter cannot read', `filter_query=${encodeURIComponent('due before: blorp')}`, 'filter_query'],
    ])('answers %s with a coded 400 naming the argument', async (_name, query, argument) => {
      const response = await as(me).get(`/api/v1/tasks/completed/by_completion_date?since=${since()}&until=${until()}&${query}`);
      expect({ status: response.status, tag: response.body?.error_tag, argument: response.body?.error_extra?.argument }).toEqual({
        status: 400,
        tag: 'INVALID_ARGUMENT_VALUE',
        argument,
      });
    });

    it('filters by project name, sub-projects and sections in SQL, only over completed tasks', async () => {
      const api = as(me);
      const parent = await created(api.post('/rest/v2/projects', { name: 'Done parent' }));
      const child = await created(api.post('/rest/v2/projects', { name: 'Done child', parent_id: parent }));
      const section = await created(api.post('/rest/v2/sections', { name: 'Done section', project_id: child }));
      const inParent = await created(api.post('/rest/v2/tasks', { content: 'closed in parent', project_id: parent }));
      const inSection = await created(api.post('/rest/v2/tasks', { content: 'closed in section', project_id: child, section_id: section }));
      await created(api.post('/rest/v2/tasks', { content: 'open in parent', project_id: parent }));
      for (const id of [inParent, inSection]) expect((await api.post(`/rest/v2/tasks/${id}/close`)).status).toBe(204);
      const names = async (filter: string) => {
        const response = await api.get(`/api/v1/tasks/completed/by_completion_date?since=${since()}&until=${until()}&filter_query=${encodeURIComponent(filter)}`);
        expect(response.status).toBe(200);
        return (response.body.items as Array<{ content: string }>).map((task) => task.content).sort();
      };
      expect(await names('#Done parent')).toEqual(['closed in parent']);
      expect(await names('##Done parent')).toEqual(['closed in parent', 'closed in section']);
      expect(await names('/Done section')).toEqual(['closed in section']);
      expect(await names('#Done parent | /Done section')).toEqual(['closed in parent', 'closed in section']);
      expect(await names('##Done parent & !/Done section')).toEqual(['closed in parent']);
      // the other user's history is theirs alone
      const theirs = await as(them).get(`/api/v1/tasks/completed/by_completion_date?since=${since()}&until=${until()}&filter_query=${encodeURIComponent('##Done parent')}`);
      expect(theirs.body.items).toEqual([]);
    });
  });
});
