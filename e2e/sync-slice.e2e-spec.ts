import { randomBytes } from 'node:crypto';
import { PRODUCT_VERSION } from '@doable/shared-logging';
import { http, waitFor } from '@doable/shared-testing';
import { MODES } from './support/system-view';
import { useSystem } from './support/use-system';

/**
 * The foundation's vertical slice through every layer: gateway -> auth -> sync -> plans and
 * notifications, the same tests embedded and clustered.
 */
describe.each(MODES)('sync slice (%s)', (mode) => {
  const { system, account } = useSystem(mode);

  const sync = (body: Record<string, unknown>, path = '/api/v1/sync', token = account.token) => http(system.url, 'POST', path, { token, json: body });

  it('answers a full sync with the user, the Inbox, empty resources and a token', async () => {
    const { status, body } = await sync({ sync_token: '*', resource_types: ['all'] });
    expect(status).toBe(200);
    expect(body.full_sync).toBe(true);
    expect(body.sync_token).toEqual(expect.any(String));
    expect(body.full_sync_date_utc).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    expect(body.user).toMatchObject({ id: account.userId, email: account.email, full_name: 'Test User', inbox_project_id: expect.any(String) });
    expect(body.projects).toEqual([expect.objectContaining({ id: body.user.inbox_project_id, name: 'Inbox', inbox_project: true, is_deleted: false })]);
    for (const key of ['items', 'notes', 'project_notes', 'sections', 'labels', 'filters', 'reminders', 'collaborators', 'collaborator_states', 'live_notifications']) {
      expect(body[key]).toEqual([]);
    }
    // The catalogue's default plan: the suites run on e2e/support/plans.e2e.json, whose default is roomy.
    expect(body.user_plan_limits.current.plan_name).toBe('roomy');
    expect(body).not.toHaveProperty('workspace_users');
    expect(body.temp_id_mapping).toEqual({});
  });

  it('gives every new user the default plan (plans consumes the user-created event too)', async () => {
    const rows = await waitFor(async () => {
      const found = await system.sql<{ plan_id: string }>('SELECT plan_id FROM plans.user_plans WHERE user_id = $1', [account.userId]);
      return found.length > 0 ? found : undefined;
    }, 'the plan assignment');
    expect(rows).toEqual([{ plan_id: 'roomy' }]);
  });

  it('accepts the form encoding of todoist@1.1.0 as well as JSON', async () => {
    const { status, body } = await http(system.url, 'POST', '/sync/v9/sync', { token: account.token, form: { sync_token: '*', resource_types: '["projects"]' } });
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(['full_sync', 'full_sync_date_utc', 'projects', 'sync_token', 'temp_id_mapping']);
    expect(body.projects[0]).toHaveProperty('collapsed', false);
    expect(body.projects[0]).not.toHaveProperty('is_collapsed');
  });

  it('adds a project by temp id; it appears in the next incremental sync and not in the one after', async () => {
    const before = (await sync({ sync_token: '*', resource_types: ['projects'] })).body.sync_token as string;
    const write = await sync({
      commands: [
        { type: 'project_add', uuid: `${mode}-add-1`, temp_id: 'tmp-work', args: { name: 'Work', color: 'red' } },
        { type: 'project_add', uuid: `${mode}-add-2`, temp_id: 'tmp-sub', args: { name: 'Sub', parent_id: 'tmp-work' } },
      ],
    });
    expect(write.status).toBe(200);
    expect(write.body.sync_status).toEqual({ [`${mode}-add-1`]: 'ok', [`${mode}-add-2`]: 'ok' });
    const workId = write.body.temp_id_mapping['tmp-work'];
    expect(workId).toMatch(/^[0-9]+$/);

    const next = await sync({ sync_token: before, resource_types: ['projects'] });
    expect(next.body.full_sync).toBe(false);
    expect(next.body.projects.map((project: { name: string }) => project.name).sort()).toEqual(['Sub', 'Work']);
    expect(next.body.projects.find((project: { name: string }) => project.name === 'Sub').parent_id).toBe(workId);

    const after = await sync({ sync_token: next.body.sync_token, resource_types: ['projects'] });
    expect(after.body.projects).toEqual([]);
    expect(after.body.sync_token).toBe(next.body.sync_token);
  });

  it('returns what a write created in the same response (community client reads it from there)', async () => {
    const token = (await sync({ sync_token: '*', resource_types: ['projects'] })).body.sync_token as string;
    const { body } = await http(system.url, 'POST', '/sync/v9/sync', {
      token: account.token,
      form: { sync_token: token, resource_types: '["projects"]', commands: JSON.stringify([{ type: 'project_add', uuid: `${mode}-form-add`, temp_id: 'tmp-form', args: { name: 'Form' } }]) },
    });
    expect(body.sync_status[`${mode}-form-add`]).toBe('ok');
    expect(body.projects).toEqual([expect.objectContaining({ id: body.temp_id_mapping['tmp-form'], name: 'Form' })]);
  });

  it('runs a retried command once and replays its result', async () => {
    const command = { type: 'project_add', uuid: `${mode}-retry`, temp_id: 'tmp-retry', args: { name: 'Retried' } };
    const [first, second] = await Promise.all([sync({ commands: [command] }), sync({ commands: [command] })]);
    expect(first.body.sync_status[command.uuid]).toBe('ok');
    expect(second.body.sync_status[command.uuid]).toBe('ok');
    expect(second.body.temp_id_mapping).toEqual(first.body.temp_id_mapping);
    const { body } = await sync({ sync_token: '*', resource_types: ['projects'] });
    expect(body.projects.filter((project: { name: string }) => project.name === 'Retried')).toHaveLength(1);
  });

  it('answers each failing command in sync_status without undoing the others', async () => {
    const { status, body } = await sync({
      commands: [
        { type: 'project_add', uuid: `${mode}-bad-name`, args: { name: '' } },
        { type: 'project_add', uuid: `${mode}-good`, args: { name: 'Kept' } },
        { type: 'project_add', uuid: `${mode}-bad-parent`, args: { name: 'Orphan', parent_id: 'no-such-temp-id' } },
        { type: 'no_such_command', uuid: `${mode}-unknown`, args: {} },
      ],
    });
    expect(status).toBe(200);
    expect(body.sync_status[`${mode}-good`]).toBe('ok');
    expect(body.sync_status[`${mode}-bad-name`]).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE', http_code: 400, error_extra: { argument: 'name' } });
    expect(body.sync_status[`${mode}-bad-parent`]).toMatchObject({ error_code: 15, error_tag: 'INVALID_TEMPID', http_code: 400 });
    expect(body.sync_status[`${mode}-unknown`]).toMatchObject({ error_tag: 'UNKNOWN_COMMAND', http_code: 400 });
  });

  it("never shows one user's projects to another, nor lets them use another's parent project", async () => {
    const other = await system.createAccount();
    const mine = await sync({ commands: [{ type: 'project_add', uuid: `${mode}-private`, temp_id: 'tmp-private', args: { name: 'Private' } }] });
    const privateId = mine.body.temp_id_mapping['tmp-private'];
    const theirs = await sync({ sync_token: '*', resource_types: ['projects'] }, '/api/v1/sync', other.token);
    expect(theirs.body.projects.map((project: { id: string }) => project.id)).not.toContain(privateId);
    const attempt = await sync({ commands: [{ type: 'project_add', uuid: `${mode}-steal`, args: { name: 'Child', parent_id: privateId } }] }, '/api/v1/sync', other.token);
    expect(attempt.body.sync_status[`${mode}-steal`]).toMatchObject({ error_tag: 'PROJECT_NOT_FOUND', http_code: 404 });
  });

  it('rejects a sync token that is not its own with a coded error', async () => {
    const other = await system.createAccount();
    const foreign = (await sync({ sync_token: '*', resource_types: ['projects'] }, '/api/v1/sync', other.token)).body.sync_token as string;
    for (const token of ['garbage', foreign]) {
      const { status, body } = await sync({ sync_token: token, resource_types: ['projects'] });
      expect(status).toBe(400);
      expect(body).toMatchObject({ error_tag: 'INVALID_SYNC_TOKEN', http_code: 400, error_extra: { argument: 'sync_token' } });
    }
  });

  it.each([
    ['no token', undefined, 401],
    ['an unknown token', 'f'.repeat(40), 401],
  ])('answers 401 with %s', async (_case, token, status) => {
    const response = await http(system.url, 'POST', '/api/v1/sync', { token, json: { sync_token: '*', resource_types: ['all'] } });
    expect(response.status).toBe(status);
    expect(response.body).toMatchObject({ error_tag: 'AUTH_INVALID_TOKEN', http_code: 401 });
  });

  it('accepts a request body just under the 1 MiB limit (larger than one bus message once wrapped)', async () => {
    // Hex text compresses about in half, like real prose; the body is over NATS's 1 MB default.
    const commands = Array.from({ length: 100 }, (_, index) => ({
      type: 'item_add',
      uuid: `${mode}-big-${index}`,
      temp_id: `big-${index}`,
      args: { content: `big ${index}`, description: randomBytes(5_150).toString('hex') },
    }));
    const raw = JSON.stringify({ commands });
    expect(raw.length).toBeGreaterThan(1_030_000);
    expect(raw.length).toBeLessThan(1_048_576);
    const response = await http(system.url, 'POST', '/api/v1/sync', { token: account.token, raw, headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(200);
    expect(Object.values(response.body.sync_status as Record<string, unknown>).every((status) => status === 'ok')).toBe(true);
    expect(Object.keys(response.body.temp_id_mapping as object)).toHaveLength(100);
  });

  it('answers bad requests with precise 4xx codes', async () => {
    const malformed = await http(system.url, 'POST', '/api/v1/sync', { token: account.token, raw: '{oops', headers: { 'content-type': 'application/json' } });
    expect([malformed.status, malformed.body.error_tag]).toEqual([400, 'INVALID_JSON']);
    const tooBig = await http(system.url, 'POST', '/api/v1/sync', { token: account.token, raw: JSON.stringify({ pad: 'x'.repeat(1_100_000) }), headers: { 'content-type': 'application/json' } });
    expect([tooBig.status, tooBig.body.error_tag]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    const wrongType = await http(system.url, 'POST', '/api/v1/sync', { token: account.token, raw: 'hello', headers: { 'content-type': 'text/plain' } });
    expect([wrongType.status, wrongType.body.error_tag]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    const tooMany = await sync({ commands: Array.from({ length: 101 }, (_, index) => ({ type: 'project_add', uuid: `${mode}-many-${index}`, args: { name: 'x' } })) });
    expect([tooMany.status, tooMany.body.error_tag]).toEqual([400, 'TOO_MANY_COMMANDS']);
    const unknownType = await sync({ sync_token: '*', resource_types: ['nonsense'] });
    expect([unknownType.status, unknownType.body.error_tag]).toEqual([400, 'INVALID_ARGUMENT_VALUE']);
    const missing = await sync({});
    expect([missing.status, missing.body.error_tag]).toEqual([400, 'ARGUMENT_MISSING']);
    const wrongMethod = await http(system.url, 'GET', '/api/v1/sync', { token: account.token });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
    const nowhere = await http(system.url, 'GET', '/api/v1/nowhere', { token: account.token });
    expect([nowhere.status, nowhere.body.error_tag]).toEqual([404, 'NOT_FOUND']);
  });

  it('accepts headers up to 65 KiB and refuses larger ones with 431', async () => {
    const withHeaders = (size: number) =>
      http(system.url, 'POST', '/api/v1/sync', { token: account.token, json: { sync_token: '*', resource_types: ['user'] }, headers: { 'x-padding': 'p'.repeat(size) } });
    expect((await withHeaders(64 * 1024)).status).toBe(200);
    expect((await withHeaders(66 * 1024)).status).toBe(431);
  });

  it('sends CORS headers for any origin, without credentials', async () => {
    const preflight = await http(system.url, 'OPTIONS', '/api/v1/sync', { headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-credentials')).toBe('false');
    const actual = await sync({ sync_token: '*', resource_types: ['user'] });
    expect(actual.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('reports health (with the release it runs) and metrics', async () => {
    await expect(http(system.url, 'GET', '/health/live')).resolves.toMatchObject({ status: 200, body: { status: 'ok', version: PRODUCT_VERSION } });
    await expect(http(system.url, 'GET', '/health/ready')).resolves.toMatchObject({ status: 200, body: { status: 'ok', version: PRODUCT_VERSION } });
    const metrics = await http<string>(system.url, 'GET', '/metrics');
    expect(metrics.body).toContain('doable_http_request_seconds_bucket');
  });
});
