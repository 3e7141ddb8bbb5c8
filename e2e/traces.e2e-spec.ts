import { randomBytes } from 'node:crypto';
import { http, waitFor } from '@doable/shared-testing';
import { type OtlpCollector, type ReceivedSpan, startOtlpCollector } from './support/otlp-collector';
import { MODES, type Account, type SystemUnderTest } from './support/system-view';
import { startOwnSystem } from './support/use-system';

const SERVER = 2;
const CLIENT = 3;
const PRODUCER = 4;
const CONSUMER = 5;

/**
 * Issue #34: one request traced across the whole product, in both run modes, exported over OTLP
 * to a real receiver this test starts. One sync request whose commands create a project and
 * share it makes one trace: the gateway's HTTP span, the NATS request to sync and its handling,
 * the commands, their SQL (the pg instrumentation), the outbox relay's publish of the invitation
 * event, and the notifications service consuming it. The caller's `traceparent` is continued,
 * so the test knows the trace's id before it asks.
 */
describe.each(MODES)('traces (%s)', (mode) => {
  let collector: OtlpCollector;
  let system: SystemUnderTest;
  let owner: Account;
  let member: Account;

  beforeAll(async () => {
    collector = await startOtlpCollector();
    // Sampler ratio 0: only traces a caller marks sampled are recorded (the tests' requests send
    // `traceparent` with the flag), not the accounts' set-up or this worker's other systems, which
    // would otherwise be exported too (one tracer per process) and load the run for nothing.
    system = await startOwnSystem(mode, { env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_BSP_SCHEDULE_DELAY: '100', OTEL_TRACES_SAMPLER_ARG: '0' } });
    owner = await system.createAccount();
    member = await system.createAccount();
  });
  afterAll(async () => {
    await system?.close();
    await collector?.close();
  });

  it('follows a sync request with commands through gateway, sync, SQL, the outbox and the notification consumer', async () => {
    const traceId = randomBytes(16).toString('hex');
    const response = await http(system.url, 'POST', '/api/v1/sync', {
      token: owner.token,
      headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
      json: {
        commands: [
          { type: 'project_add', uuid: 'trace-project', temp_id: 'trace-temp', args: { name: 'Traced' } },
          { type: 'share_project', uuid: 'trace-share', args: { project_id: 'trace-temp', email: member.email } },
        ],
      },
    });
    expect(response.status).toBe(200);
    expect(response.body.sync_status).toEqual({ 'trace-project': 'ok', 'trace-share': 'ok' });

    const ofTrace = () => collector.spans.filter((span) => span.traceId === traceId);
    const consumed = (span: ReceivedSpan) => span.kind === CONSUMER && String(span.attributes['messaging.consumer.group.name']).startsWith('notifications.');
    const published = (span: ReceivedSpan) => span.kind === PRODUCER && String(span.attributes['messaging.destination.name']).includes('invitation');
    // Each span is exported when it ends, in batches: the publish span ends after the delivery
    // it started (in-process, the consumer's span), so it may come in a later batch.
    await waitFor(() => (ofTrace().some(consumed) && ofTrace().some(published)) || undefined, 'the notification consumer and outbox publish spans');
    const spans = ofTrace();
    const byId = new Map(spans.map((span) => [span.spanId, span]));
    const named = (test: (span: ReceivedSpan) => boolean, what: string): ReceivedSpan => {
      const found = spans.find(test);
      if (!found) throw new Error(`no ${what} span among: ${spans.map((span) => span.name).join(', ')}`);
      return found;
    };

    const edge = named((span) => span.kind === SERVER && span.name === 'POST /api/v1/sync', 'gateway HTTP');
    const request = named((span) => span.kind === CLIENT && span.name.startsWith('sync.') && span.name.endsWith(' request'), 'NATS request to sync');
    const handled = named((span) => span.kind === SERVER && span.parentSpanId === request.spanId, 'sync handling');
    const share = named((span) => span.name === 'command share_project', 'share_project command');
    const sql = named((span) => span.scope.includes('instrumentation-pg') && span.kind === CLIENT, 'SQL');
    const publish = named(published, 'outbox publish');
    const consumer = named(consumed, 'notification consumer');

    // One tree: each part descends from the gateway's span (the caller's span is its parent).
    const descendsFrom = (span: ReceivedSpan, ancestor: ReceivedSpan): boolean => {
      for (let at: ReceivedSpan | undefined = span; at; at = at.parentSpanId ? byId.get(at.parentSpanId) : undefined) if (at.spanId === ancestor.spanId) return true;
      return false;
    };
    for (const part of [request, handled, share, sql, publish, consumer]) expect(descendsFrom(part, edge)).toBe(true);
    expect(descendsFrom(share, handled)).toBe(true);
    expect(descendsFrom(consumer, publish)).toBe(true);
    // Cluster mode's subjects carry the deployment's prefix on the wire.
    expect(handled.name.endsWith(`${String(request.attributes['messaging.destination.name'])} handle`)).toBe(true);
    // Statements are recorded with their placeholders, never the values (the invitee's address).
    expect(spans.some((span) => JSON.stringify(span.attributes).includes(member.email))).toBe(false);
    if (mode === 'cluster') expect(new Set(spans.map((span) => span.service))).toEqual(new Set(['doable-cluster']));
  });

  it('follows an assistant tool call from the gateway through the MCP tool to sync', async () => {
    const traceId = randomBytes(16).toString('hex');
    const response = await http(system.url, 'POST', '/mcp', {
      token: owner.token,
      headers: { accept: 'application/json, text/event-stream', traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
      json: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'find-projects', arguments: {} } },
    });
    expect(response.status).toBe(200);
    // Spans arrive in batches from several services: wait until the tool's and one of a service it asked are both in.
    const { tool, ancestors } = await waitFor(() => {
      const spans = collector.spans.filter((span) => span.traceId === traceId);
      const byId = new Map(spans.map((span) => [span.spanId, span]));
      const ancestorsOf = (span: ReceivedSpan): string[] => {
        const names: string[] = [];
        for (let at = span.parentSpanId ? byId.get(span.parentSpanId) : undefined; at; at = at.parentSpanId ? byId.get(at.parentSpanId) : undefined) names.push(at.name);
        return names;
      };
      const found = spans.find((span) => span.name === 'mcp tool find-projects');
      const asked = found && spans.some((span) => span.kind === SERVER && ancestorsOf(span).includes(found.name));
      return asked ? { tool: found, ancestors: ancestorsOf } : undefined;
    }, 'the MCP tool span and a service handling its request');
    expect(ancestors(tool)).toContain('POST /mcp');
  });
});
