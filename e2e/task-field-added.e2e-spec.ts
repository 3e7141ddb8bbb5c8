import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { TASK_FIELDS, WireObject } from '@doable/contracts-sync';
import type { ApiTask } from '@doable/contracts-web-wire';
import { http, waitFor } from '@doable/shared-testing';
import { Ajv2020 } from 'ajv/dist/2020';
import { unzipSync } from 'fflate';
import type { TaskFieldsWithEstimate } from './support/added-task-field';
import { REPO_ROOT } from './support/processes';
import { type Account, MODES, sqlOn } from './support/system-view';

/**
 * Issue #46's "done when": a task field added only as a table line appears in api/v1, v9, REST v2,
 * OpenAPI, backups and the web app's types. The line (`estimate`), its migration and nothing else
 * are in support/added-task-field.ts; a child process runs the whole compiled system, in each
 * mode, with the line at the end of the task table (support/added-task-field.system.ts), and this
 * spec reads the field back through each interface. The web app's types are checked by the
 * compiler (below): its task type is the table's api/v1 object, so a line more is a key more.
 *
 * REST answers are read with fetch, not `http()`: every e2e spec checks `http()`'s REST answers
 * against the OpenAPI document of the code it loaded, which has no `estimate`; this spec checks
 * them against the document the child system serves, which must describe the field.
 */

type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;
/** The web app's task (`@doable/contracts-web-wire`) is the task table's api/v1 object... */
export type WebTaskIsTheTables = Holds<Exactly<ApiTask, WireObject<typeof TASK_FIELDS, 'apiV1'>>>;
/** ...so with the line, it has `estimate`, typed by the line's schema. */
export type WebTaskHasTheLine = Holds<Exactly<WireObject<TaskFieldsWithEstimate, 'apiV1'>['estimate'], number | null>>;

interface Started {
  readonly url: string;
  readonly databaseUrl: string;
  readonly accounts: readonly [Account, Account];
}

const SUPPORT = join(REPO_ROOT, 'dist', 'e2e', 'support');
const ENTRY = join(SUPPORT, 'added-task-field.system.js');
const PRELOAD = join(SUPPORT, 'added-task-field.preload.js');

/** The child system: started, its first output line read, stopped (and its database and stream removed) after the suite. */
function startWithTheLine(mode: string): { readonly child: ChildProcess; readonly started: Promise<Started> } {
  if (!existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: run \`npm run build\` first (npm test does)`);
  const child = spawn(process.execPath, ['--require', PRELOAD, ENTRY, mode], { env: { ...process.env, LOG_LEVEL: 'error' }, stdio: ['pipe', 'pipe', 'pipe'] });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const started = new Promise<Started>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line) as Started));
    child.once('exit', (code) => reject(new Error(`the system with the line exited (${code}) before it started:\n${errors}`)));
  });
  return { child, started };
}

async function rest(url: string, token: string, method: string, path: string, json?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(new URL(path, url), {
    method,
    headers: { authorization: `Bearer ${token}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

describe.each(MODES)('a task field added only in the table (%s)', (mode) => {
  let child: ChildProcess;
  let system: Started;
  let owner: Account;
  let taskId = '';

  beforeAll(async () => {
    const started = startWithTheLine(mode);
    child = started.child;
    system = await started.started;
    owner = system.accounts[0];
  });

  afterAll(async () => {
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  });

  const sync = (version: 'api/v1' | 'v9', body: Record<string, unknown>, token = owner.token) =>
    version === 'api/v1'
      ? http(system.url, 'POST', '/api/v1/sync', { token, json: body })
      : http(system.url, 'POST', '/sync/v9/sync', { token, form: Object.fromEntries(Object.entries(body).map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)])) });

  it('is an item_add and item_update argument, checked by the line’s schema, and stored in its column', async () => {
    const added = await sync('api/v1', { commands: [{ type: 'item_add', uuid: 'add-estimated', temp_id: 'estimated', args: { content: 'Estimated', estimate: 25 } }] });
    expect(added.body.sync_status).toEqual({ 'add-estimated': 'ok' });
    taskId = added.body.temp_id_mapping['estimated'];
    const updated = await sync('api/v1', {
      commands: [
        { type: 'item_update', uuid: 'update-estimate', args: { id: taskId, estimate: 40 } },
        { type: 'item_update', uuid: 'refused-estimate', args: { id: taskId, estimate: -1 } },
      ],
    });
    expect(updated.body.sync_status['update-estimate']).toBe('ok');
    expect(updated.body.sync_status['refused-estimate']).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE', http_code: 400 });
    const [row] = await sqlOn(system.databaseUrl)<{ estimate: number | null }>(`SELECT estimate FROM sync.items WHERE id = $1`, [taskId]);
    expect(row).toEqual({ estimate: 40 });
  });

  it('is written by the api/v1 and v9 syncs', async () => {
    for (const version of ['api/v1', 'v9'] as const) {
      const { body } = await sync(version, { sync_token: '*', resource_types: ['items'] });
      expect(body.items.find((item: { id: string }) => item.id === taskId)).toMatchObject({ content: 'Estimated', estimate: 40 });
    }
  });

  it('is described by the served OpenAPI document, and REST v2 and api/v1 REST take it and answer it as described', async () => {
    const document = (await (await fetch(new URL('/openapi.json', system.url))).json()) as { components: { schemas: Record<string, { properties?: Record<string, unknown> }> } };
    for (const name of ['TaskV2', 'TaskApiV1', 'TaskCreate', 'TaskUpdate']) expect(document.components.schemas[name]?.properties).toHaveProperty('estimate');
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema({ $id: 'openapi.json', components: document.components });
    const answers = (component: string) => ajv.compile({ $ref: `openapi.json#/components/schemas/${component}` });
    const taskV2 = answers('TaskV2');
    const taskApiV1 = answers('TaskApiV1');

    const got = await rest(system.url, owner.token, 'GET', `/rest/v2/tasks/${taskId}`);
    expect(got).toMatchObject({ status: 200, body: { id: taskId, estimate: 40 } });
    expect(taskV2(got.body) ? [] : taskV2.errors).toEqual([]);
    // The list is written by PostgreSQL (the REST v2 SQL), not by the TypeScript writer.
    const listed = await rest(system.url, owner.token, 'GET', `/rest/v2/tasks?ids=${taskId}`);
    expect(listed.body).toEqual([got.body]);

    const created = await rest(system.url, owner.token, 'POST', '/rest/v2/tasks', { content: 'Estimated in REST', estimate: 15 });
    expect(created).toMatchObject({ status: 200, body: { content: 'Estimated in REST', estimate: 15 } });
    const updated = await rest(system.url, owner.token, 'POST', `/api/v1/tasks/${created.body.id}`, { estimate: null });
    expect(updated).toMatchObject({ status: 200, body: { id: created.body.id, estimate: null } });
    expect(taskApiV1(updated.body) ? [] : taskApiV1.errors).toEqual([]);
    const refused = await rest(system.url, owner.token, 'POST', '/rest/v2/tasks', { content: 'Refused', estimate: 'soon' });
    expect(refused).toMatchObject({ status: 400, body: { error_tag: 'INVALID_ARGUMENT_VALUE' } });
  });

  it('is kept by a backup and read back by its restore', async () => {
    await sqlOn(system.databaseUrl)(
      `INSERT INTO sync.backup_schedule (user_id, next_at, requested) VALUES ($1, now(), true) ON CONFLICT (user_id) DO UPDATE SET next_at = now(), requested = true`,
      [owner.userId],
    );
    const [backup] = await waitFor(async () => {
      const listed = await http<Array<{ url: string }>>(system.url, 'GET', '/api/v1/backups', { token: owner.token });
      return listed.status === 200 && listed.body.length > 0 ? listed.body : undefined;
    }, 'the requested backup');
    const download = await fetch(new URL(`/api/v1/backups/download?file=${encodeURIComponent(backup.url)}`, system.url), { headers: { authorization: `Bearer ${owner.token}` } });
    expect(download.status).toBe(200);
    const zip = new Uint8Array(await download.arrayBuffer());
    const account = JSON.parse(new TextDecoder().decode(unzipSync(zip)['doable-account.json'])) as { items: Array<{ id: string; estimate?: number }> };
    expect(account.items.find((item) => item.id === taskId)).toMatchObject({ content: 'Estimated', estimate: 40 });

    const fresh = system.accounts[1];
    const form = new FormData();
    form.append('file', new Blob([zip]), 'backup.zip');
    const restored = await fetch(new URL('/api/v1/import/todoist', system.url), { method: 'POST', headers: { authorization: `Bearer ${fresh.token}` }, body: form });
    expect(await restored.json()).toMatchObject({ status: 'ok', refused: [] });
    const { body } = await sync('api/v1', { sync_token: '*', resource_types: ['items'] }, fresh.token);
    expect(body.items.find((item: { content: string }) => item.content === 'Estimated')).toMatchObject({ estimate: 40 });
  });
});
