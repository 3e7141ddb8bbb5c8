import { createHmac } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { WEBHOOK_EVENT_NAMES } from '@doable/contracts-auth';
import { type AppOwner, appOwner } from './support/app-owner';
import { authorize, exchangeCode, type RegisteredApp } from './support/oauth-flow';
import { shareWith } from './support/sharing';
import { syncSession } from './support/sync-session';
import { type Account, MODES, type SystemUnderTest } from './support/system-view';
import { useSystem } from './support/use-system';

interface Delivery {
  readonly headers: IncomingHttpHeaders;
  readonly raw: string;
  readonly body: { event_name: string; user_id: string; event_data: Record<string, unknown>; [key: string]: unknown };
}

/** A webhook receiver on 127.0.0.1 that records what it gets and answers each path's queued statuses (then 200). */
class Receiver {
  readonly received: Delivery[] = [];
  readonly failures = new Map<string, number[]>();
  private server?: Server;

  async start(): Promise<number> {
    this.server = createServer((request, response) => {
      let raw = '';
      request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      request.on('end', () => {
        const body = JSON.parse(raw) as Delivery['body'];
        this.received.push({ headers: request.headers, raw, body });
        const content = typeof body.event_data['content'] === 'string' ? body.event_data['content'] : '';
        response.writeHead(this.failures.get(content)?.shift() ?? 200).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }

  /** Waits (generously) until a delivery matching `match` has arrived. */
  async next(match: (delivery: Delivery) => boolean, what: string): Promise<Delivery> {
    for (let waited = 0; waited < 60_000; waited += 100) {
      const found = this.received.find(match);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no webhook delivery of ${what}; got ${this.received.map((d) => d.body.event_name).join(', ')}`);
  }
}

/** The app's own configuration call (HTTP Basic client credentials). */
async function configureWebhook(system: SystemUnderTest, app: RegisteredApp, body: Record<string, unknown>): Promise<{ status: number; body: any }> {
  const response = await fetch(new URL('/api/v1/apps/webhook', system.url), {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64')}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

/** An app's owner who also authorised it through OAuth. */
async function ownerWithAuthorisedApp(system: SystemUnderTest): Promise<AppOwner> {
  const owner = await appOwner(system, 'Webhook receiver');
  const landed = await authorize(owner.browser, { clientId: owner.app.clientId, scopes: ['data:read'] });
  await exchangeCode(system.url, owner.app, landed.searchParams.get('code')!);
  return owner;
}

/** The app asks for every event type; `reminder:fired` has its own test (a reminder must come due). */
const EVENTS = [...WEBHOOK_EVENT_NAMES];
const OBJECT_EVENTS = EVENTS.filter((name) => name !== 'reminder:fired');

describe.each(MODES)('webhooks (%s)', (mode) => {
  describe('a receiver the operator allows (WEBHOOKS_ALLOW_HTTP, WEBHOOKS_ALLOW_PRIVATE)', () => {
    const { system, account: stranger } = useSystem(mode, {
      env: { WEBHOOKS_ALLOW_HTTP: 'true', WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOKS_RETRY_SECONDS: '1', WEBHOOKS_POLL_MS: '200', REMINDERS_POLL_SECONDS: '1' },
    });
    const receiver = new Receiver();
    let owner: Account;
    let app: RegisteredApp;
    let port: number;

    beforeAll(async () => {
      port = await receiver.start();
      ({ account: owner, app } = await ownerWithAuthorisedApp(system));
      const configured = await configureWebhook(system, app, { callback_url: `http://127.0.0.1:${port}/hook`, events: EVENTS });
      expect(configured).toMatchObject({ status: 200, body: { client_id: app.clientId, events: EVENTS, version: '1' } });
    });
    afterAll(() => receiver.stop());

    it('delivers each event type, signed with the client secret, with the documented body and headers', async () => {
      const session = syncSession(() => system, () => owner, 'webhooks');
      const { mapping } = await session.run(
        { type: 'project_add', temp_id: 'p', args: { name: 'Hooked' } },
        { type: 'section_add', temp_id: 's', args: { name: 'Part', project_id: 'p' } },
        { type: 'item_add', temp_id: 'i', args: { content: 'Hooked task', project_id: 'p' } },
        { type: 'note_add', temp_id: 'n', args: { content: 'A comment', item_id: 'i' } },
        { type: 'label_add', temp_id: 'l', args: { name: 'hooked' } },
        { type: 'filter_add', temp_id: 'f', args: { name: 'Hooked', query: 'today' } },
      );
      await session.run(
        { type: 'project_update', args: { id: mapping['p'], name: 'Hooked again' } },
        { type: 'section_update', args: { id: mapping['s'], name: 'Part two' } },
        { type: 'item_update', args: { id: mapping['i'], content: 'Hooked task, edited' } },
        { type: 'note_update', args: { id: mapping['n'], content: 'An edited comment' } },
        { type: 'label_update', args: { id: mapping['l'], color: 'red' } },
        { type: 'filter_update', args: { id: mapping['f'], name: 'Hooked again' } },
        { type: 'section_archive', args: { id: mapping['s'] } },
        { type: 'section_unarchive', args: { id: mapping['s'] } },
        { type: 'item_complete', args: { id: mapping['i'] } },
        { type: 'item_uncomplete', args: { id: mapping['i'] } },
        { type: 'note_delete', args: { id: mapping['n'] } },
        { type: 'item_delete', args: { id: mapping['i'] } },
        { type: 'section_delete', args: { id: mapping['s'] } },
        { type: 'label_delete', args: { id: mapping['l'] } },
        { type: 'filter_delete', args: { id: mapping['f'] } },
        { type: 'project_archive', args: { id: mapping['p'] } },
        { type: 'project_unarchive', args: { id: mapping['p'] } },
        { type: 'project_delete', args: { id: mapping['p'] } },
      );
      // A move and a label rename are updates too.
      const moved = await session.run({ type: 'item_add', temp_id: 'm', args: { content: 'Moved task' } }, { type: 'project_add', temp_id: 'q', args: { name: 'Elsewhere' } }, { type: 'label_add', temp_id: 'r', args: { name: 'old-name' } });
      await session.run({ type: 'item_move', args: { id: moved.mapping['m'], project_id: moved.mapping['q'] } }, { type: 'label_rename', args: { name_old: 'old-name', name_new: 'new-name' } });
      await receiver.next((d) => d.body.event_name === 'item:updated' && d.body.event_data['id'] === moved.mapping['m'] && d.body.event_data['project_id'] === moved.mapping['q'], 'the move');
      await receiver.next((d) => d.body.event_name === 'label:updated' && d.body.event_data['name'] === 'new-name', 'the rename');
      for (const name of OBJECT_EVENTS) {
        const delivery = await receiver.next((d) => d.body.event_name === name && d.body.user_id === owner.userId, name);
        expect(delivery.headers['x-todoist-hmac-sha256']).toBe(createHmac('sha256', app.clientSecret).update(delivery.raw).digest('base64'));
        expect(delivery.headers['user-agent']).toBe('Todoist-Webhooks');
        expect(delivery.headers['content-type']).toBe('application/json');
        expect(delivery.headers['x-todoist-delivery-id']).toMatch(/^[0-9a-f-]{36}$/);
        expect(Object.keys(delivery.body)).toEqual(expect.arrayContaining(['event_name', 'user_id', 'event_data', 'initiator', 'triggered_at', 'version']));
        expect(delivery.body['initiator']).toMatchObject({ id: owner.userId, full_name: 'Test User' });
        expect(delivery.body.event_data['id']).toEqual(expect.any(String));
      }
      const added = await receiver.next((d) => d.body.event_name === 'item:added' && d.body.event_data['id'] === mapping['i'], 'item:added');
      expect(added.body.event_data).toMatchObject({ id: mapping['i'], content: 'Hooked task' });
    });

    it('redelivers to a receiver that failed twice: the third attempt carries the same delivery id', async () => {
      receiver.failures.set('Flaky delivery', [500, 500]);
      const session = syncSession(() => system, () => owner, 'webhooks-retry');
      await session.run({ type: 'item_add', args: { content: 'Flaky delivery' } });
      await receiver.next((d) => d.body.event_data['content'] === 'Flaky delivery' && receiver.received.filter((r) => r.body.event_data['content'] === 'Flaky delivery').length >= 3, 'the third attempt');
      const attempts = receiver.received.filter((r) => r.body.event_data['content'] === 'Flaky delivery');
      expect(attempts).toHaveLength(3);
      expect(new Set(attempts.map((a) => a.headers['x-todoist-delivery-id'])).size).toBe(1);
      expect(new Set(attempts.map((a) => a.raw)).size).toBe(1);
      // A task that still exists when its body is made is rendered whole, in the api/v1 shape.
      expect(attempts[0].body.event_data).toMatchObject({ content: 'Flaky delivery', project_id: expect.any(String), checked: false });
    });

    it('sends a completion also as item:updated, with old_item and update_intent item_completed, and a reorder as item:updated', async () => {
      const session = syncSession(() => system, () => owner, 'webhooks-intent');
      const { mapping } = await session.run({ type: 'item_add', temp_id: 'c', args: { content: 'Intent task' } }, { type: 'item_add', temp_id: 'd', args: { content: 'Reordered task' } });
      await session.run({ type: 'item_complete', args: { id: mapping['c'] } });
      const extra = (d: Delivery) => (d.body['event_data_extra'] ?? {}) as { update_intent?: string; old_item?: Record<string, unknown> };
      const completion = await receiver.next((d) => d.body.event_name === 'item:updated' && d.body.event_data['id'] === mapping['c'] && extra(d).update_intent === 'item_completed', 'the completion as an update');
      // The task as of the event, and as it was before: not whatever it is when the body is made.
      expect(completion.body.event_data).toMatchObject({ id: mapping['c'], content: 'Intent task', checked: true });
      expect(extra(completion).old_item).toMatchObject({ id: mapping['c'], content: 'Intent task', checked: false });
      await receiver.next((d) => d.body.event_name === 'item:completed' && d.body.event_data['id'] === mapping['c'], 'item:completed');

      await session.run({ type: 'item_reorder', args: { items: [{ id: mapping['d'], child_order: 42 }] } });
      const reorder = await receiver.next((d) => d.body.event_name === 'item:updated' && d.body.event_data['id'] === mapping['d'] && d.body.event_data['child_order'] === 42, 'the reorder');
      expect(extra(reorder)).toMatchObject({ update_intent: 'item_updated', old_item: { id: mapping['d'], content: 'Reordered task' } });
      expect(extra(reorder).old_item?.['child_order']).not.toBe(42);
    });

    it("delivers a change another member makes in a shared project to the collaborator's app, once, as that collaborator", async () => {
      const member = await system.createAccount();
      const { mapping } = await syncSession(() => system, () => owner, 'webhooks-shared').run({ type: 'project_add', temp_id: 'p', args: { name: 'Shared hooks' } });
      await shareWith(system, owner, member, mapping['p']);
      const added = await syncSession(() => system, () => member, 'webhooks-member').run({ type: 'item_add', temp_id: 'm', args: { content: 'Added by the member', project_id: mapping['p'] } });
      const delivery = await receiver.next((d) => d.body.event_data['content'] === 'Added by the member', "the member's task");
      expect(delivery.body).toMatchObject({ event_name: 'item:added', user_id: owner.userId, event_data: { id: added.mapping['m'], project_id: mapping['p'] }, initiator: { id: member.userId } });
      expect(await system.sql(`SELECT user_id::text AS user_id FROM webhooks.deliveries WHERE event_name = 'item:added' AND event->>'objectId' = $1`, [added.mapping['m']])).toEqual([{ user_id: owner.userId }]);
    });

    it('fires a reminder due now as reminder:fired, to the user it notifies', async () => {
      const due = `${new Date().toISOString().slice(0, 19)}Z`;
      const { mapping } = await syncSession(() => system, () => owner, 'webhooks-reminder').run(
        { type: 'item_add', temp_id: 't', args: { content: 'Remind me' } },
        { type: 'reminder_add', temp_id: 'r', args: { item_id: 't', type: 'absolute', due: { date: due } } },
      );
      const fired = await receiver.next((d) => d.body.event_name === 'reminder:fired' && d.body.event_data['id'] === mapping['r'], 'reminder:fired');
      expect(fired.body).toMatchObject({ user_id: owner.userId, event_data: { id: mapping['r'], item_id: mapping['t'], type: 'absolute', notify_uid: owner.userId } });
      expect(fired.headers['x-todoist-hmac-sha256']).toBe(createHmac('sha256', app.clientSecret).update(fired.raw).digest('base64'));
    });

    it("configures a webhook on the console page (CSRF-protected, checked as the API checks it), and it delivers", async () => {
      const { account, app: consoleApp, browser } = await ownerWithAuthorisedApp(system);
      const page = await browser.get('/auth/apps');
      expect(page.status).toBe(200);
      expect(page.text).toContain('action="/auth/apps/webhook"');
      const appId = /data-app-id="(\d+)"/.exec(page.text)![1];
      const fields = { app_id: appId, action: 'save', callback_url: `http://127.0.0.1:${port}/console`, events: ['item:added', 'item:completed'], version: '1' };
      expect((await browser.request('POST', '/auth/apps/webhook', fields)).status).toBe(403);
      const refused = await browser.submit('/auth/apps/webhook', page, { ...fields, events: ['item:exploded'] });
      expect(refused.status).toBe(400);
      expect(refused.text).toContain('data-error-tag="INVALID_ARGUMENT_VALUE"');
      const saved = await browser.submit('/auth/apps/webhook', page, fields);
      expect(saved.status).toBe(200);
      expect(saved.text).toMatch(/value="item:completed" id="[^"]+" checked>/);
      const read = await fetch(new URL('/api/v1/apps/webhook', system.url), { headers: { authorization: `Basic ${Buffer.from(`${consoleApp.clientId}:${consoleApp.clientSecret}`).toString('base64')}` } });
      expect(await read.json()).toEqual({ client_id: consoleApp.clientId, callback_url: fields.callback_url, events: fields.events, version: '1' });
      await syncSession(() => system, () => account, 'webhooks-console').run({ type: 'item_add', args: { content: 'Configured on the console' } });
      const delivery = await receiver.next((d) => d.body.event_data['content'] === 'Configured on the console', 'the console-configured delivery');
      expect(delivery.headers['x-todoist-hmac-sha256']).toBe(createHmac('sha256', consoleApp.clientSecret).update(delivery.raw).digest('base64'));
    });

    it('makes no delivery for a user who did not authorise the app', async () => {
      await syncSession(() => system, () => stranger, 'webhooks-stranger').run({ type: 'item_add', args: { content: 'Not for the app' } });
      await syncSession(() => system, () => owner, 'webhooks-after').run({ type: 'item_add', args: { content: 'After the stranger' } });
      await receiver.next((d) => d.body.event_data['content'] === 'After the stranger', 'the owner’s later task');
      expect(receiver.received.filter((d) => d.body.user_id === stranger.userId || d.body.event_data['content'] === 'Not for the app')).toEqual([]);
      expect(await system.sql('SELECT 1 FROM webhooks.deliveries WHERE user_id = $1', [stranger.userId])).toEqual([]);
    });
  });

  describe('the default address policy (private receivers refused)', () => {
    const { system } = useSystem(mode, { env: { WEBHOOKS_ALLOW_HTTP: 'true', WEBHOOKS_RETRY_SECONDS: '1', WEBHOOKS_MAX_RETRIES: '1', WEBHOOKS_POLL_MS: '200' } });
    const receiver = new Receiver();
    let port: number;

    beforeAll(async () => {
      port = await receiver.start();
    });
    afterAll(() => receiver.stop());

    it('refuses a loopback receiver with a coded 400, and never calls a name that resolves to loopback at delivery', async () => {
      const { account: owner, app } = await ownerWithAuthorisedApp(system);
      const refused = await configureWebhook(system, app, { callback_url: `http://127.0.0.1:${port}/hook`, events: ['item:added'] });
      expect(refused).toMatchObject({ status: 400, body: { error_tag: 'WEBHOOK_URL_REFUSED' } });
      // This machine's own name resolves to a loopback address: accepted as a name, refused when resolved.
      const name = hostname();
      expect((await lookup(name, { all: true })).every(({ address }) => address.startsWith('127.') || address === '::1')).toBe(true);
      expect((await configureWebhook(system, app, { callback_url: `http://${name}:${port}/hook`, events: ['item:added'] })).status).toBe(200);
      await syncSession(() => system, () => owner, 'webhooks-refused').run({ type: 'item_add', args: { content: 'Never sent' } });
      for (let waited = 0; waited < 60_000; waited += 200) {
        const [row] = await system.sql<{ state: string }>('SELECT state FROM webhooks.deliveries WHERE user_id = $1', [owner.userId]);
        if (row?.state === 'failed') break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(await system.sql('SELECT state, attempts, last_error FROM webhooks.deliveries WHERE user_id = $1', [owner.userId])).toEqual([
        { state: 'failed', attempts: 2, last_error: expect.stringContaining('refused address') },
      ]);
      expect(receiver.received).toEqual([]);
    });
  });
});
