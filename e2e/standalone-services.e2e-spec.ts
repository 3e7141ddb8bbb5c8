import { Client } from 'pg';
import { PRODUCT_VERSION } from '@doable/shared-logging';
import { createTestDatabase, deleteEventStream, http, TEST_NATS_URL, type TestDatabase, uniqueSubjectPrefix, waitFor } from '@doable/shared-testing';
import { streamNameFor } from '@doable/shared-transport';
import { run, runToCompletion, type ServiceProcess, startProcess } from './support/processes';
import { HttpBrowser, logIn } from './support/oauth-flow';

const SERVICES = ['auth-oauth', 'plans', 'notifications', 'uploads', 'sync', 'rest', 'mcp', 'gateway'] as const;
const DATA_SERVICES = ['auth-oauth', 'plans', 'notifications', 'uploads', 'sync'];
/** sync as k8s/base deploys it: `sync` answers requests, `sync-events` consumes its events (PROCESS_ROLE). */
const PROCESSES = [...SERVICES, 'sync-events'] as const;
const serviceOf = (label: (typeof PROCESSES)[number]) => (label === 'sync-events' ? 'sync' : label);
const ROLES: Partial<Record<(typeof PROCESSES)[number], NodeJS.ProcessEnv>> = { sync: { PROCESS_ROLE: 'requests' }, 'sync-events': { PROCESS_ROLE: 'events' } };

/**
 * Cluster mode as deployed: every service a process of its own (sync two: its requests and its
 * events), started from the compiled entry a container runs, after the one-shot migration step.
 */
describe('each service as its own process (cluster)', () => {
  let database: TestDatabase;
  const subjectPrefix = uniqueSubjectPrefix('procs');
  const processes = new Map<string, ServiceProcess>();
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    database = await createTestDatabase('procs', { empty: true });
    env = { NATS_URL: TEST_NATS_URL, NATS_SUBJECT_PREFIX: subjectPrefix, DATABASE_URL: database.url, LOG_LEVEL: 'warn', HOST: '127.0.0.1', OUTBOX_POLL_MS: '200' };
    // One after another, as the migration Job runs them; without blocking this process, which
    // also serves the worker's shared systems.
    for (const service of DATA_SERVICES) {
      const migrated = await run(service, ['migrate'], env);
      expect({ service, status: migrated.status, stderr: migrated.stderr }).toEqual({ service, status: 0, stderr: '' });
    }
    for (const label of PROCESSES) processes.set(label, start(label));
  });

  /** PORT 0: the OS picks each port at bind; the `ready` line (LOG_LEVEL info) says which. */
  function start(label: (typeof PROCESSES)[number]): ServiceProcess {
    const service = serviceOf(label);
    return startProcess(service, { ...env, PORT: '0', LOG_LEVEL: 'info', ...(DATA_SERVICES.includes(service) ? {} : { DATABASE_URL: '' }), ...ROLES[label] });
  }

  afterAll(async () => {
    for (const service of [...processes.keys()].reverse()) await processes.get(service)!.stop();
    await deleteEventStream(streamNameFor(subjectPrefix));
    await database.drop();
  });

  it.each(PROCESSES)('%s starts alone and reports ready', async (label) => {
    const service = serviceOf(label);
    const url = await processes.get(label)!.url();
    const ready = await waitFor(async () => {
      const response = await http(url, 'GET', '/health/ready');
      return response.status === 200 ? response : undefined;
    }, `${label} to be ready (output: ${processes.get(label)!.output()})`);
    expect(ready.body.status).toBe('ok');
    expect(ready.body.version).toBe(PRODUCT_VERSION);
    expect(ready.body.checks.broker).toBe('up');
    // Every log line names the release: in a rolling update two releases share one log stream.
    const logLines = processes.get(label)!.output().split('\n').filter((line) => line.startsWith('{'));
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.map((line) => (JSON.parse(line) as { version?: string }).version)).toEqual(logLines.map(() => PRODUCT_VERSION));
    if (DATA_SERVICES.includes(service)) expect(ready.body.checks.database).toBe('up');
    const metrics = await http<string>(url, 'GET', '/metrics');
    expect(metrics.body).toContain(`service="${service}"`);
    // What the alert rules read (k8s/components/monitoring): dependencies up, the outbox caught up.
    expect(metrics.body).toMatch(new RegExp(`^doable_dependency_up\\{dependency="broker",service="${service}"\\} 1$`, 'm'));
    if (DATA_SERVICES.includes(service)) {
      expect(metrics.body).toMatch(new RegExp(`^doable_dependency_up\\{dependency="database",service="${service}"\\} 1$`, 'm'));
      expect(metrics.body).toMatch(/^doable_outbox_lag_seconds\{service="[a-z-]+"\} [0-9.e+-]+$/m);
    }
  });

  it('serves the first account created with the CLI through the gateway', async () => {
    const created = await run('cli', ['create-account', '--email', 'ops@example.test', '--name', 'Ops'], env);
    expect(created.status).toBe(0);
    const token = /API token: ([0-9a-f]{40})/.exec(created.stdout)?.[1];
    expect(token).toBeDefined();
    const gateway = await processes.get('gateway')!.url();
    // The profile is made by sync from the event the CLI left in auth's outbox.
    const response = await waitFor(async () => {
      const answer = await http(gateway, 'POST', '/api/v1/sync', { token, json: { sync_token: '*', resource_types: ['user', 'projects'] } });
      return answer.status === 200 ? answer : undefined;
    }, 'the new account to sync');
    expect(response.body.user.email).toBe('ops@example.test');
    expect(response.body.projects).toEqual([expect.objectContaining({ name: 'Inbox' })]);
    // The account's event reached sync's consumer (its lag observed) in sync-events, and the gateway timed its request to sync.
    const syncMetrics = (await http<string>(await processes.get('sync-events')!.url(), 'GET', '/metrics')).body;
    expect(syncMetrics).toMatch(/^doable_event_consumer_lag_seconds_count\{[^}]*durable="sync\.create-profile"[^}]*\} [1-9]/m);
    const gatewayMetrics = (await http<string>(gateway, 'GET', '/metrics')).body;
    expect(gatewayMetrics).toMatch(/^doable_rpc_client_seconds_count\{[^}]*outcome="ok"[^}]*\} [1-9]/m);
    // The assistant server, a process of its own, answers through the gateway with the same token.
    const tools = await http(gateway, 'POST', '/mcp', { token, headers: { accept: 'application/json, text/event-stream' }, json: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'user-info', arguments: {} } } });
    expect(tools.body.result.structuredContent.email).toBe('ops@example.test');

    // An operator gives the account a password; its owner can then log in to the pages. The CLI
    // runs asynchronously: a blocked event loop (spawnSync) outlived the gateway's keep-alive
    // timeout under load, and the log-in then went out on a connection the gateway had closed.
    const weak = await run('cli', ['set-password', '--email', 'ops@example.test', '--password', 'password'], env);
    expect(weak.status).toBe(1);
    expect(weak.stderr).toContain('error:');
    const set = await run('cli', ['set-password', '--email', 'ops@example.test', '--password', 'violet-harbour-42'], env);
    expect(set.status).toBe(0);
    await expect(logIn(new HttpBrowser(gateway), 'ops@example.test', 'violet-harbour-42')).resolves.toBeUndefined();
    expect((await run('cli', ['set-password', '--email', 'nobody@example.test', '--password', 'violet-harbour-42'], env)).status).toBe(1);
  });

  it("splits sync's work by PROCESS_ROLE: events consumed by sync-events alone, requests answered by sync alone, nothing lost while either is down", async () => {
    const created = await run('cli', ['create-account', '--email', 'roles@example.test', '--name', 'Roles'], env);
    const token = /API token: ([0-9a-f]{40})/.exec(created.stdout)![1];
    const gateway = await processes.get('gateway')!.url();
    await waitFor(async () => ((await http(gateway, 'POST', '/api/v1/sync', { token, json: { sync_token: '*', resource_types: ['user'] } })).status === 200 || undefined), 'the profile made by sync-events');
    // The activity log is a paid plan's: the plan change reaches sync as an event, consumed in sync-events too.
    expect((await run('cli', ['set-plan', '--email', 'roles@example.test', '--plan', 'pro'], env)).status).toBe(0);
    const activity = async () => {
      const answer = await http<{ results: Array<{ event_type: string; object_id: string }> }>(gateway, 'GET', '/api/v1/activities?object_type=item', { token });
      if (answer.status !== 200) throw new Error(`activities: ${answer.status} ${JSON.stringify(answer.body)}`);
      return answer.body.results.map((entry) => `${entry.event_type}:${entry.object_id}`);
    };

    await waitFor(() => activity().then(() => true), 'the pro plan in sync');
    // The requests process consumed nothing: no durable of its own observed a single event.
    const requestsMetrics = (await http<string>(await processes.get('sync')!.url(), 'GET', '/metrics')).body;
    expect(requestsMetrics).not.toMatch(/^doable_event_consumer_lag_seconds_count\{/m);

    // With sync-events stopped, writes are still answered; their activity waits in the stream and comes when it is back.
    await expect(processes.get('sync-events')!.stop()).resolves.toBe(0);
    const added = await http<{ id: string }>(gateway, 'POST', '/api/v1/tasks', { token, json: { content: 'Logged later' } });
    expect(added.status).toBe(200);
    // Once the outbox has published the write's event, only a consumer in sync (requests) could have logged it.
    await waitFor(async () => (await unpublishedOf(database.url, 'sync')) === 0 || undefined, "sync's outbox published");
    expect(await activity()).toEqual([]);
    processes.set('sync-events', start('sync-events'));
    expect(await waitFor(async () => ((await activity()).length > 0 ? activity() : undefined), 'the activity consumed by the restarted sync-events')).toEqual([`added:${added.body.id}`]);

    // With sync (requests) stopped, sync-events answers no request: the gateway says 503 at once rather than waiting on it.
    await expect(processes.get('sync')!.stop()).resolves.toBe(0);
    const refused = await http(gateway, 'GET', '/api/v1/tasks', { token });
    expect(refused.status).toBe(503);
    processes.set('sync', start('sync'));
    await processes.get('sync')!.url();
    expect((await waitFor(async () => {
      const listed = await http<{ results: Array<{ content: string }> }>(gateway, 'GET', '/api/v1/tasks', { token });
      return listed.status === 200 ? listed : undefined;
    }, 'sync answering again')).body.results.map((task) => task.content)).toEqual(['Logged later']);
  });

  it('refuses to run a service that consumes no events as PROCESS_ROLE=events', async () => {
    const refused = await run('rest', ['serve'], { ...env, DATABASE_URL: '', PORT: '0', PROCESS_ROLE: 'events' });
    expect(refused.status).toBe(1);
    expect(refused.stdout + refused.stderr).toContain('PROCESS_ROLE=events, but this service consumes no events');
  });

  it('refuses to start with a bad configuration, naming every problem', () => {
    const refused = runToCompletion('sync', ['serve'], { NATS_URL: 'http://not-nats', DATABASE_URL: 'nope', LOG_LEVEL: 'loud' });
    expect(refused.status).toBe(78);
    expect(refused.stderr).toContain('NATS_URL');
    expect(refused.stderr).toContain('DATABASE_URL');
    expect(refused.stderr).toContain('LOG_LEVEL');
  });

  it('shuts down gracefully on SIGTERM', async () => {
    const rest = processes.get('rest')!;
    processes.delete('rest');
    await expect(rest.stop()).resolves.toBe(0);
  });
});

/** Outbox rows of a service's schema not yet published. */
async function unpublishedOf(url: string, schema: string): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${schema}".outbox WHERE published_at IS NULL`)).rows[0].n;
  } finally {
    await client.end();
  }
}
