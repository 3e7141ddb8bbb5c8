import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICE_MALLOC_ENV } from '@doable/shared-runtime';
import { createTestDatabase, deleteEventStream, http, TEST_NATS_URL, type TestDatabase, uniqueSubjectPrefix, waitFor } from '@doable/shared-testing';
import { streamNameFor } from '@doable/shared-transport';
import { runClient } from './support/clients';
import { startedTogether } from './support/started-together';
import { REPO_ROOT, run } from './support/processes';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * `npm run start:cluster` as a user runs it: one command, every service its own process, a
 * printed URL and first token that unmodified clients use; Ctrl-C leaves no process behind.
 */
describe('npm run start:cluster', () => {
  let database: TestDatabase;
  const subjectPrefix = uniqueSubjectPrefix('start-cluster');
  let launcher: ChildProcess;
  let exited: Promise<number | null>;
  let stdout = '';
  let stderr = '';
  let url: string;
  let token: string;
  let pids: number[];
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    database = await createTestDatabase('start_cluster', { empty: true });
    env = { PATH: process.env['PATH'], DATABASE_URL: database.url, NATS_URL: TEST_NATS_URL, NATS_SUBJECT_PREFIX: subjectPrefix, OUTBOX_POLL_MS: '200', RATE_LIMIT_AUTH_REQUESTS: '0' };
    // npm test has built dist/ already; rebuilding would delete it under running processes.
    launcher = spawn(process.execPath, [join(REPO_ROOT, 'tools/scripts/start-cluster.mjs'), '--no-build', '--port', '0', '--gateways', '2', '--sync', '2', '--sync-events', '1'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    launcher.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    launcher.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    exited = new Promise((ok) => launcher.once('exit', (code) => ok(code)));
    // Twelve processes and every migration on an empty database: about 70 s beside another
    // worker on two cores, more when the machine is busier.
    await waitFor(() => /API token: /.test(stdout) || launcher.exitCode !== null, 'start:cluster to print its token', 210_000);
    url = /base URL: +(\S+)/.exec(stdout)?.[1] ?? '';
    token = /API token: +([0-9a-f]{40})/.exec(stdout)?.[1] ?? '';
    pids = [...(/processes: (.*)/.exec(stdout)?.[1] ?? '').matchAll(/=(\d+)/g)].map((match) => Number(match[1]));
  }, 240_000);

  afterAll(async () => {
    if (launcher.exitCode === null) launcher.kill('SIGKILL');
    for (const pid of pids ?? []) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    await deleteEventStream(streamNameFor(subjectPrefix));
    await database.drop();
  });

  /** Another account, made the operator's way (the CLI on the cluster's database). */
  async function cliAccount(): Promise<string> {
    const email = `ops-${Math.random().toString(16).slice(2, 10)}@example.test`;
    const created = await run('cli', ['create-account', '--email', email, '--name', 'Ops'], { DATABASE_URL: database.url, LOG_LEVEL: 'warn' });
    const made = /API token: ([0-9a-f]{40})/.exec(created.stdout)?.[1];
    if (!made) throw new Error(`create-account failed (exit ${created.status}, signal ${created.signal}): ${created.stderr}${created.stdout}`);
    await waitFor(async () => (await http(url, 'POST', '/api/v1/sync', { token: made, json: { sync_token: '*', resource_types: ['user'] } })).status === 200, 'the new profile');
    return made;
  }

  it('prints the base URL, a first token and every process it started', () => {
    expect({ stderr, url, token }).toEqual({ stderr: expect.any(String), url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), token: expect.stringMatching(/^[0-9a-f]{40}$/) });
    // auth-oauth, plans, notifications, uploads, webhooks, rest and mcp; 2 sync replicas answering
    // requests and sync's events in a process of their own (as deployed), 2 gateways. The first
    // account's profile came from sync-events.
    expect(pids).toHaveLength(12);
    expect(/processes: (.*)/.exec(stdout)?.[1]).toMatch(/sync#1=\d+ sync#2=\d+ sync-events#1=\d+/);
    expect(pids.every(isAlive)).toBe(true);
  });

  it('starts every process with the allocator settings the Dockerfile gives the services', () => {
    const expected = Object.entries(SERVICE_MALLOC_ENV).map(([name, value]) => `${name}=${value}`);
    for (const pid of pids) expect(readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')).toEqual(expect.arrayContaining(expected));
  });

  it('serves @doist/todoist-sdk 17 with the printed token (sync, temp ids, incremental)', async () => {
    const report = await runClient('todoist-sdk-sync.mjs', { DOABLE_URL: url, DOABLE_TOKEN: token });
    expect(report.full).toEqual({ fullSync: true, user: 'admin@doable.local', projects: ['Inbox'], items: 0, labels: 0, filters: 0 });
    expect(report.write.statuses).toEqual(['ok', 'ok', 'ok']);
    expect(report.quiet).toEqual({ fullSync: false, items: 0, projects: 0, labels: 0, filters: 0 });
  });

  const COMMUNITY_PATHS = ['/sync/v9', '/api/v1'];
  const REST_SCRIPTS = ['rest-v2-client.mjs', 'api-v1-client.mjs'];
  /**
   * The other clients' runs, each with accounts of its own, started together by the first of
   * their tests (they are processes talking to processes: this test's own process only waits).
   */
  const clientRun = startedTogether([...COMMUNITY_PATHS, ...REST_SCRIPTS], async (key: string): Promise<any> => {
    if (COMMUNITY_PATHS.includes(key)) return runClient('todoist-community.mjs', { DOABLE_SYNC_ENDPOINT: `${url}${key}`, DOABLE_TOKEN: await cliAccount() });
    const [account, other] = await Promise.all([cliAccount(), cliAccount()]);
    return runClient(key, { DOABLE_URL: url, DOABLE_TOKEN: account, DOABLE_OTHER_TOKEN: other });
  });

  it.each(COMMUNITY_PATHS)('serves todoist@1.1.0 against %s', async (path) => {
    const report = await clientRun(path);
    expect(report.projects).toEqual(['Community project', 'Inbox']);
  });

  it.each(REST_SCRIPTS)('serves the official REST client %s (its own schemas validate every answer)', async (script) => {
    const report = await clientRun(script);
    expect(report.projects).toMatchObject({ inbox: 'Inbox', fetched: true });
  });

  it('stops every process it started on Ctrl-C (SIGINT)', async () => {
    launcher.kill('SIGINT');
    await expect(exited).resolves.toBe(0);
    expect(pids.filter(isAlive)).toEqual([]);
  });
});
