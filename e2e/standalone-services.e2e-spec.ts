import { PRODUCT_VERSION } from '@doable/shared-logging';
import { createTestDatabase, deleteEventStream, http, TEST_NATS_URL, type TestDatabase, uniqueSubjectPrefix, waitFor } from '@doable/shared-testing';
import { streamNameFor } from '@doable/shared-transport';
import { run, runToCompletion, type ServiceProcess, startProcess } from './support/processes';
import { HttpBrowser, logIn } from './support/oauth-flow';

const SERVICES = ['auth-oauth', 'plans', 'notifications', 'uploads', 'sync', 'rest', 'mcp', 'gateway'] as const;
const DATA_SERVICES = ['auth-oauth', 'plans', 'notifications', 'uploads', 'sync'];

/**
 * Cluster mode as deployed: every service a process of its own, started from the compiled
 * entry a container runs, after the one-shot migration step.
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
    for (const service of SERVICES) {
      // PORT 0: the OS picks each port at bind; the `ready` line (LOG_LEVEL info) says which.
      processes.set(service, startProcess(service, { ...env, PORT: '0', LOG_LEVEL: 'info', ...(DATA_SERVICES.includes(service) ? {} : { DATABASE_URL: '' }) }));
    }
  });

  afterAll(async () => {
    for (const service of [...processes.keys()].reverse()) await processes.get(service)!.stop();
    await deleteEventStream(streamNameFor(subjectPrefix));
    await database.drop();
  });

  it.each(SERVICES)('%s starts alone and reports ready', async (service) => {
    const url = await processes.get(service)!.url();
    const ready = await waitFor(async () => {
      const response = await http(url, 'GET', '/health/ready');
      return response.status === 200 ? response : undefined;
    }, `${service} to be ready (output: ${processes.get(service)!.output()})`);
    expect(ready.body.status).toBe('ok');
    expect(ready.body.version).toBe(PRODUCT_VERSION);
    expect(ready.body.checks.broker).toBe('up');
    // Every log line names the release: in a rolling update two releases share one log stream.
    const logLines = processes.get(service)!.output().split('\n').filter((line) => line.startsWith('{'));
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
    // The account's event reached sync's consumer (its lag observed), and the gateway timed its request to sync.
    const syncMetrics = (await http<string>(await processes.get('sync')!.url(), 'GET', '/metrics')).body;
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
