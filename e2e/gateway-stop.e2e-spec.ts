import { Agent, request } from 'node:http';
import WebSocket from 'ws';
import { http, waitFor } from '@doable/shared-testing';
import { type ServiceProcess, startProcess } from './support/processes';
import { WEB_ORIGIN } from './support/push-client';
import { useSystem } from './support/use-system';

interface Outcome {
  readonly gateway: number;
  readonly status: number;
  /** performance.now() when the answer came. */
  readonly at: number;
  readonly syncStatus?: unknown;
}

/** What a client must retry elsewhere: the connection was refused, reset or closed under the request. */
class ConnectionLost extends Error {}

/**
 * A gateway stopped under keep-alive load (issue #45): it used to answer on its open connections
 * until the clients went away (34 s, measured), so Kubernetes SIGKILLed it every rollout. Two
 * gateway processes, as deployed, over the cluster's services; clients keep one kept-alive
 * connection each and, as a balancer or a client with two addresses does, send a request
 * refused or cut off to the other gateway (reads, and writes with command uuids, are safe to
 * resend). SIGTERM to one: its readiness goes 503 (`stopping`) at once while it still serves for
 * the drain; then every answer closes its connection, and the process exits 0 on its own, before
 * its deadline (STOP_TIMEOUT_MS, 10 s) would end it with 1. The clients see no failed request.
 */
describe('a gateway stopped under keep-alive load (cluster)', () => {
  const { system, account } = useSystem('cluster');
  const gateways: ServiceProcess[] = [];
  const urls: string[] = [];

  beforeAll(async () => {
    const transport = system.natsTransport!;
    for (let index = 0; index < 2; index++) {
      gateways.push(
        startProcess('gateway', {
          NATS_URL: transport.url,
          NATS_SUBJECT_PREFIX: transport.subjectPrefix,
          DATABASE_URL: '',
          HOST: '127.0.0.1',
          PORT: '0',
          // `info`: the `ready` line says the port; the stop's steps are logged at info too.
          LOG_LEVEL: 'info',
          RATE_LIMIT_SYNC_REQUESTS: '0',
          RATE_LIMIT_AUTH_REQUESTS: '0',
          STOP_DRAIN_MS: '1500',
        }),
      );
    }
    for (const gateway of gateways) urls.push(await gateway.url());
    for (const url of urls) await waitFor(async () => (await http(url, 'GET', '/health/ready')).status === 200 || undefined, `gateway ${url} to be ready`);
  }, 120_000);

  afterAll(async () => {
    for (const gateway of gateways) await gateway.stop();
  });

  /** One request on a client's kept-alive connection to a gateway. */
  function send(agent: Agent, url: string, body: unknown): Promise<{ status: number; body: any }> {
    return new Promise((resolve, reject) => {
      const req = request(`${url}/api/v1/sync`, { method: 'POST', agent, headers: { authorization: `Bearer ${account.token}`, 'content-type': 'application/json' } }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
        res.on('error', () => reject(new ConnectionLost()));
      });
      req.on('error', () => reject(new ConnectionLost()));
      req.end(JSON.stringify(body));
    });
  }

  it('exits 0 on its own, after serving its drain, while clients retrying on the other gateway see no failure', async () => {
    const outcomes: Outcome[] = [];
    const failures: string[] = [];
    const written: string[] = [];
    let running = true;
    // Four clients, two starting on each gateway.
    const clients = [0, 1, 0, 1].map(async (first, client) => {
      const agents = [new Agent({ keepAlive: true, maxSockets: 1 }), new Agent({ keepAlive: true, maxSockets: 1 })];
      let gateway = first;
      for (let round = 0; running; round++) {
        // Reads, and writes that carry a command uuid: both are safe to send again.
        const uuid = crypto.randomUUID();
        const body = round % 2 === 0 ? { sync_token: '*', resource_types: ['projects'] } : { commands: [{ type: 'item_add', uuid, temp_id: uuid, args: { content: `client ${client} round ${round}` } }] };
        let answer: { status: number; body: any } | undefined;
        for (let attempt = 0; attempt < 2 && !answer; attempt++) {
          try {
            answer = await send(agents[gateway], urls[gateway], body);
          } catch (err) {
            if (!(err instanceof ConnectionLost)) throw err;
            gateway = 1 - gateway;
          }
        }
        if (!answer) {
          failures.push(`client ${client} round ${round}: no connection to either gateway`);
          continue;
        }
        const syncStatus = 'commands' in body ? answer.body?.sync_status?.[uuid] : undefined;
        outcomes.push({ gateway, status: answer.status, at: performance.now(), syncStatus });
        if (answer.status !== 200 || (syncStatus !== undefined && syncStatus !== 'ok')) failures.push(`client ${client} round ${round}: ${answer.status} ${JSON.stringify(answer.body)}`);
        else if ('commands' in body) written.push(uuid);
      }
      for (const agent of agents) agent.destroy();
    });

    // An app's push socket on the gateway that stops: told to go away (1001) and reconnect elsewhere.
    const socket = new WebSocket(`${urls[0].replace(/^http/, 'ws')}/ws`, { headers: { origin: WEB_ORIGIN, authorization: `Bearer ${account.token}` } });
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const closeCode = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    await waitFor(() => outcomes.filter((outcome) => outcome.gateway === 0).length >= 20 || undefined, 'load on the first gateway');
    const stopped = gateways[0];
    const exited = new Promise<number | null>((resolve) => stopped.child.once('exit', (code) => resolve(code)));
    const signalledAt = performance.now();
    stopped.child.kill('SIGTERM');
    let code: number | null;
    let stopSeconds: number;
    let ready: { status: number; body: unknown };
    try {
      // Readiness goes down as soon as the signal is handled, while the drain still serves.
      ready = await waitFor(async () => {
        const answer = await http(urls[0], 'GET', '/health/ready');
        return answer.status === 200 ? undefined : answer;
      }, 'the stopping gateway to answer readiness 503');
      code = await exited;
      stopSeconds = (performance.now() - signalledAt) / 1000;
      // Then the load goes on against the other gateway alone for a while.
      const count = outcomes.length;
      await waitFor(() => outcomes.length >= count + 20 || undefined, 'load on the other gateway');
    } finally {
      running = false;
      await Promise.all(clients);
    }
    const afterSignal = outcomes.filter((outcome) => outcome.at > signalledAt);
    expect({ status: ready.status, body: ready.body }).toEqual({ status: 503, body: { status: 'error', reason: 'stopping', checks: {}, version: expect.any(String) } });

    // Measured, not asserted: the exit code says whether the deadline had to cut the stop.
    const steps = stopped.output().split('\n').filter((line) => /"msg":"(stop|stopping)/.test(line));
    process.stdout.write(`gateway stopped under load in ${stopSeconds.toFixed(2)} s; it answered ${afterSignal.filter((o) => o.gateway === 0).length} of ${afterSignal.length} requests after SIGTERM\n${steps.join('\n')}\n`);
    expect({ code, output: code === 0 ? '' : stopped.output() }).toEqual({ code: 0, output: '' });
    expect(failures).toEqual([]);
    expect(await closeCode).toBe(1001);
    // It kept serving during the drain, and its steps are in its log.
    expect(afterSignal.some((outcome) => outcome.gateway === 0)).toBe(true);
    expect(stopped.output()).toMatch(/stop: push sockets closed/);
    expect(stopped.output()).toMatch(/"msg":"stopped"/);

    // Every acknowledged write is there exactly once, retried or not.
    const items = await http(urls[1], 'POST', '/api/v1/sync', { token: account.token, json: { sync_token: '*', resource_types: ['items'] } });
    const contents = (items.body.items as Array<{ content: string }>).map((item) => item.content);
    expect(contents.length).toBe(new Set(contents).size);
    expect(contents.length).toBe(written.length);
  });
});
