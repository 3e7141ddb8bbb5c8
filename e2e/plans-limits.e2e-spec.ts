import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { http, waitFor } from '@doable/shared-testing';
import { planLimitsOf, setPlan } from './support/plans';
import { type Account, E2E_PLANS_FILE, MODES, type SystemUnderTest } from './support/system-view';
import { useSystem } from './support/use-system';

interface Command {
  readonly type: string;
  readonly args: Record<string, unknown>;
  readonly temp_id?: string;
}

/** The `tiny` plan of e2e/support/plans.e2e.json: each quantity is one more than the test makes first. */
const TINY = { max_projects: 2, max_projects_joined: 1, max_tasks: 5, max_sections: 2, max_labels: 2, max_filters: 2, max_reminders_time: 2, max_reminders_location: 1, max_collaborators: 2 };

let counter = 0;

/** Commands through /sync/v9/sync; answers each command's sync_status in order, and the temp id mapping. */
async function sync(system: SystemUnderTest, account: Account, commands: Command[]): Promise<{ statuses: any[]; mapping: Record<string, string> }> {
  const withUuids = commands.map((command) => ({ ...command, uuid: `plans-${system.mode}-${++counter}` }));
  const response = await http(system.url, 'POST', '/sync/v9/sync', { token: account.token, json: { commands: withUuids } });
  expect(response.status).toBe(200);
  return { statuses: withUuids.map((command) => response.body.sync_status[command.uuid]), mapping: response.body.temp_id_mapping };
}

const times = <T>(count: number, make: (index: number) => T): T[] => Array.from({ length: count }, (_, index) => make(index));

/** A refusal for a counted quantity, as sync_status or an api/v1 body shows it. */
const limitReached = (tag: string, limit: keyof typeof TINY, plan = 'tiny') => ({
  error_tag: tag,
  http_code: 403,
  error_extra: { limit, max_count: TINY[limit], plan },
});

const premiumOnly = (feature: string) => ({ error_tag: 'PREMIUM_ONLY', error_code: 32, http_code: 403, error_extra: { feature, plan: 'bare' } });

/**
 * Plans and limits end to end (issue #14): an operator's set-plan reaches sync live, and each
 * counted quantity and feature of the plan is enforced at its boundary through every way in:
 * sync commands, REST v2, api/v1 REST and quick add. Accounts start on the e2e catalogue's roomy
 * default; each test moves its own accounts to `tiny` or `bare`.
 */
describe.each(MODES)('plans and limits (%s)', (mode) => {
  const { system } = useSystem(mode, { accounts: 0 });

  const accountOn = async (plan: string): Promise<Account> => {
    const account = await system.createAccount();
    await setPlan(system, account, plan);
    return account;
  };
  const inboxOf = async (account: Account): Promise<string> =>
    (await system.sql<{ id: string }>('SELECT id::text FROM sync.projects WHERE owner_id = $1 AND inbox_project', [account.userId]))[0].id;
  const projectOf = async (account: Account, name: string): Promise<string> => {
    const { statuses, mapping } = await sync(system, account, [{ type: 'project_add', temp_id: 'p', args: { name } }]);
    expect(statuses).toEqual(['ok']);
    return mapping['p'];
  };
  const liveNotificationTypes = async (account: Account): Promise<string[]> => {
    const response = await http(system.url, 'POST', '/sync/v9/sync', { token: account.token, json: { sync_token: '*', resource_types: ['live_notifications'] } });
    return (response.body.live_notifications as Array<{ notification_type: string }>).map((notification) => notification.notification_type);
  };
  /** An invitation as its invitee sees it: the id, and the secret its live notification carries. */
  const invite = async (owner: Account, member: Account, projectId: string): Promise<{ invitation_id: string; invitation_secret: string }> => {
    expect((await sync(system, owner, [{ type: 'share_project', args: { project_id: projectId, email: member.email } }])).statuses).toEqual(['ok']);
    const [{ id }] = await system.sql<{ id: string }>(
      `SELECT id::text FROM sync.project_invitations WHERE project_id = $1 AND invitee_id = $2 AND state = 'invited' ORDER BY id DESC LIMIT 1`,
      [projectId, member.userId],
    );
    return waitFor(async () => {
      const response = await http(system.url, 'POST', '/sync/v9/sync', { token: member.token, json: { sync_token: '*', resource_types: ['live_notifications'] } });
      const notification = (response.body.live_notifications as Array<{ invitation_id?: string; invitation_secret?: string }>).find((candidate) => candidate.invitation_id === id);
      return notification?.invitation_secret ? { invitation_id: id, invitation_secret: notification.invitation_secret } : undefined;
    }, `the invitation of ${member.email} to ${projectId}`);
  };

  describe('set-plan', () => {
    it('reaches the user live: the next incremental sync carries the new user_plan_limits, and the one after does not', async () => {
      const account = await system.createAccount();
      const full = await http(system.url, 'POST', '/sync/v9/sync', { token: account.token, json: { sync_token: '*', resource_types: ['all'] } });
      expect(full.body.user_plan_limits.current).toMatchObject({ plan_name: 'roomy', max_projects: 100000 });
      expect(full.body.user_plan_limits.next).toBeNull();

      await setPlan(system, account, 'tiny');
      const changed = await http(system.url, 'POST', '/sync/v9/sync', { token: account.token, json: { sync_token: full.body.sync_token, resource_types: ['all'] } });
      expect(changed.body.full_sync).toBe(false);
      expect(changed.body.user_plan_limits.current).toMatchObject({ plan_name: 'tiny', ...TINY });
      expect(changed.body.user_plan_limits.next).toMatchObject({ plan_name: 'pro' });
      const quiet = await http(system.url, 'POST', '/sync/v9/sync', { token: account.token, json: { sync_token: changed.body.sync_token, resource_types: ['all'] } });
      expect(quiet.body.user_plan_limits).toBeUndefined();
    });

    it('is enforced from the next command on, and lifted the same way', async () => {
      const account = await accountOn('tiny');
      const { statuses } = await sync(system, account, times(3, (index) => ({ type: 'project_add', args: { name: `P${index}` } })));
      expect(statuses.slice(0, 2)).toEqual(['ok', 'ok']);
      expect(statuses[2]).toMatchObject(limitReached('MAX_PROJECTS_LIMIT_REACHED', 'max_projects'));

      await setPlan(system, account, 'roomy');
      expect((await sync(system, account, [{ type: 'project_add', args: { name: 'P3' } }])).statuses).toEqual(['ok']);
    });
  });

  describe('each quantity at its boundary through /sync/v9/sync (tiny plan)', () => {
    it('max_projects: two projects besides the Inbox, then MAX_PROJECTS_LIMIT_REACHED', async () => {
      const account = await accountOn('tiny');
      const { statuses } = await sync(system, account, times(3, (index) => ({ type: 'project_add', args: { name: `Project ${index}` } })));
      expect(statuses.slice(0, 2)).toEqual(['ok', 'ok']);
      expect(statuses[2]).toMatchObject(limitReached('MAX_PROJECTS_LIMIT_REACHED', 'max_projects'));
      expect(await system.sql('SELECT id FROM sync.projects WHERE owner_id = $1 AND NOT inbox_project AND NOT is_deleted', [account.userId])).toHaveLength(2);
    });

    it('max_tasks: five tasks in a project, then MAX_ITEMS_LIMIT_REACHED (error_code 49)', async () => {
      const account = await accountOn('tiny');
      const projectId = await projectOf(account, 'Five');
      const { statuses } = await sync(system, account, times(6, (index) => ({ type: 'item_add', args: { content: `Task ${index}`, project_id: projectId } })));
      expect(statuses.slice(0, 5)).toEqual(times(5, () => 'ok'));
      expect(statuses[5]).toMatchObject({ ...limitReached('MAX_ITEMS_LIMIT_REACHED', 'max_tasks'), error_code: 49 });
    });

    it('max_sections: two sections in a project, then MAX_SECTIONS_LIMIT_REACHED', async () => {
      const account = await accountOn('tiny');
      const projectId = await projectOf(account, 'Sections');
      const { statuses } = await sync(system, account, times(3, (index) => ({ type: 'section_add', args: { name: `Section ${index}`, project_id: projectId } })));
      expect(statuses.slice(0, 2)).toEqual(['ok', 'ok']);
      expect(statuses[2]).toMatchObject(limitReached('MAX_SECTIONS_LIMIT_REACHED', 'max_sections'));
    });

    it('max_labels: two personal labels, then MAX_LABELS_LIMIT_REACHED', async () => {
      const account = await accountOn('tiny');
      const { statuses } = await sync(system, account, times(3, (index) => ({ type: 'label_add', args: { name: `label${index}` } })));
      expect(statuses.slice(0, 2)).toEqual(['ok', 'ok']);
      expect(statuses[2]).toMatchObject(limitReached('MAX_LABELS_LIMIT_REACHED', 'max_labels'));
    });

    it('max_filters: two filters, then MAX_FILTERS_LIMIT_REACHED', async () => {
      const account = await accountOn('tiny');
      const { statuses } = await sync(system, account, times(3, (index) => ({ type: 'filter_add', args: { name: `Filter ${index}`, query: 'today' } })));
      expect(statuses.slice(0, 2)).toEqual(['ok', 'ok']);
      expect(statuses[2]).toMatchObject(limitReached('MAX_FILTERS_LIMIT_REACHED', 'max_filters'));
    });

    it('max_reminders_time: two time reminders (relative and absolute), then MAX_REMINDERS_LIMIT_REACHED', async () => {
      const account = await accountOn('tiny');
      const { statuses } = await sync(system, account, [
        { type: 'item_add', temp_id: 't', args: { content: 'Remind me', due: { date: '2030-04-30T18:00:00' } } },
        { type: 'reminder_add', args: { item_id: 't', minute_offset: 30 } },
        { type: 'reminder_add', args: { item_id: 't', type: 'absolute', due: { date: '2030-04-30T17:00:00' } } },
        { type: 'reminder_add', args: { item_id: 't', type: 'absolute', due: { date: '2030-04-30T16:00:00' } } },
      ]);
      expect(statuses.slice(0, 3)).toEqual(['ok', 'ok', 'ok']);
      expect(statuses[3]).toMatchObject(limitReached('MAX_REMINDERS_LIMIT_REACHED', 'max_reminders_time'));
    });

    it('max_reminders_location: one location reminder, then MAX_LOCATION_REMINDERS_LIMIT_REACHED (time reminders still fit)', async () => {
      const account = await accountOn('tiny');
      const place = (name: string) => ({ type: 'location', name, loc_lat: '52.52', loc_long: '13.40', loc_trigger: 'on_enter', radius: 100 });
      const { statuses } = await sync(system, account, [
        { type: 'item_add', temp_id: 't', args: { content: 'Pick up parcel', due: { date: '2030-04-30T18:00:00' } } },
        { type: 'reminder_add', args: { item_id: 't', ...place('Post office') } },
        { type: 'reminder_add', args: { item_id: 't', ...place('Station') } },
        { type: 'reminder_add', args: { item_id: 't', minute_offset: 10 } },
      ]);
      expect(statuses[1]).toBe('ok');
      expect(statuses[2]).toMatchObject(limitReached('MAX_LOCATION_REMINDERS_LIMIT_REACHED', 'max_reminders_location'));
      expect(statuses[3]).toBe('ok');
    });

    it('max_collaborators: two invitations to a project, then MAX_COLLABORATORS_LIMIT_REACHED and a blocked-invitation notification for the inviter', async () => {
      const owner = await accountOn('tiny');
      const [first, second, third] = [await system.createAccount(), await system.createAccount(), await system.createAccount()];
      const projectId = await projectOf(owner, 'Shared');
      const { statuses } = await sync(system, owner, [first, second, third].map((member) => ({ type: 'share_project', args: { project_id: projectId, email: member.email } })));
      expect(statuses.slice(0, 2)).toEqual(['ok', 'ok']);
      expect(statuses[2]).toMatchObject(limitReached('MAX_COLLABORATORS_LIMIT_REACHED', 'max_collaborators'));
      await waitFor(async () => (await liveNotificationTypes(owner)).includes('share_invitation_blocked_by_project_limit'), 'the blocked-invitation notification');
      expect(await system.sql(`SELECT id FROM sync.project_invitations WHERE project_id = $1 AND invitee_id = $2`, [projectId, third.userId])).toEqual([]);
    });

    it('max_projects_joined: one project of someone else, then accept_invitation answers MAX_PROJECTS_JOINED_LIMIT_REACHED', async () => {
      const member = await accountOn('tiny');
      const [owner1, owner2] = [await system.createAccount(), await system.createAccount()];
      const firstInvitation = await invite(owner1, member, await projectOf(owner1, 'First'));
      const secondInvitation = await invite(owner2, member, await projectOf(owner2, 'Second'));
      const { statuses } = await sync(system, member, [
        { type: 'accept_invitation', args: firstInvitation },
        { type: 'accept_invitation', args: secondInvitation },
      ]);
      expect(statuses[0]).toBe('ok');
      expect(statuses[1]).toMatchObject(limitReached('MAX_PROJECTS_JOINED_LIMIT_REACHED', 'max_projects_joined'));
      // Owning projects is another quantity: the member still makes their own.
      expect((await sync(system, member, [{ type: 'project_add', args: { name: 'Mine' } }])).statuses).toEqual(['ok']);
    });
  });

  describe('the same boundaries through REST and quick add', () => {
    const post = (account: Account, path: string, json: Record<string, unknown>) => http(system.url, 'POST', path, { token: account.token, json });
    /** REST refusals (v2 and api/v1) are the gateway's one JSON error body (not the public service's old text/plain), naming the limit. */
    const expectRestRefusal = (response: { status: number; body: unknown }, tag: string) => {
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ error_tag: tag, http_code: 403, error_extra: { plan: 'tiny' } });
    };

    it.each([
      ['REST v2', '/rest/v2'],
      ['api/v1 REST', '/api/v1'],
    ])('%s: projects, tasks, sections and labels stop at the plan with 403', async (_surface, prefix) => {
      const account = await accountOn('tiny');
      const projects = [await post(account, `${prefix}/projects`, { name: 'A' }), await post(account, `${prefix}/projects`, { name: 'B' })];
      expect(projects.map((response) => response.status)).toEqual([200, 200]);
      expectRestRefusal(await post(account, `${prefix}/projects`, { name: 'C' }), 'MAX_PROJECTS_LIMIT_REACHED');

      const projectId = (projects[0].body as { id: string }).id;
      for (let index = 0; index < 5; index++) expect((await post(account, `${prefix}/tasks`, { content: `T${index}`, project_id: projectId })).status).toBe(200);
      expectRestRefusal(await post(account, `${prefix}/tasks`, { content: 'T5', project_id: projectId }), 'MAX_ITEMS_LIMIT_REACHED');

      for (let index = 0; index < 2; index++) expect((await post(account, `${prefix}/sections`, { name: `S${index}`, project_id: projectId })).status).toBe(200);
      expectRestRefusal(await post(account, `${prefix}/sections`, { name: 'S2', project_id: projectId }), 'MAX_SECTIONS_LIMIT_REACHED');

      for (let index = 0; index < 2; index++) expect((await post(account, `${prefix}/labels`, { name: `l${index}` })).status).toBe(200);
      expectRestRefusal(await post(account, `${prefix}/labels`, { name: 'l2' }), 'MAX_LABELS_LIMIT_REACHED');

      const counts = await system.sql<{ projects: number; tasks: number; sections: number; labels: number }>(
        `SELECT (SELECT count(*)::int FROM sync.projects WHERE owner_id = $1 AND NOT inbox_project) AS projects,
                (SELECT count(*)::int FROM sync.items WHERE project_id = $2) AS tasks,
                (SELECT count(*)::int FROM sync.sections WHERE project_id = $2) AS sections,
                (SELECT count(*)::int FROM sync.labels WHERE user_id = $1) AS labels`,
        [account.userId, projectId],
      );
      expect(counts[0]).toEqual({ projects: 2, tasks: 5, sections: 2, labels: 2 });
    });

    it.each([
      ['REST v2', '/rest/v2'],
      ['api/v1 REST', '/api/v1'],
    ])('%s: comments and labels the plan leaves out are 403 PREMIUM_ONLY', async (_surface, prefix) => {
      const account = await accountOn('bare');
      const task = await post(account, `${prefix}/tasks`, { content: 'Plain task' });
      expect(task.status).toBe(200);
      const comment = await post(account, `${prefix}/comments`, { task_id: (task.body as { id: string }).id, content: 'A comment' });
      expect(comment.status).toBe(403);
      expect(comment.body).toMatchObject(premiumOnly('comments'));
      const label = await post(account, `${prefix}/labels`, { name: 'errand' });
      expect(label.status).toBe(403);
      expect(label.body).toMatchObject(premiumOnly('labels'));
    });

    it('api/v1 REST: the sixth task is a 403 JSON body with error_tag and the plan in error_extra', async () => {
      const account = await accountOn('tiny');
      const projectId = await projectOf(account, 'Rest v1');
      for (let index = 0; index < 5; index++) expect((await post(account, '/api/v1/tasks', { content: `T${index}`, project_id: projectId })).status).toBe(200);
      const refused = await post(account, '/api/v1/tasks', { content: 'T5', project_id: projectId });
      expect(refused.status).toBe(403);
      expect(refused.headers.get('content-type')).toMatch(/application\/json/);
      expect(refused.body).toMatchObject({ ...limitReached('MAX_ITEMS_LIMIT_REACHED', 'max_tasks'), error_code: 49 });
    });

    it('quick add (api/v1 and sync v9) into a full Inbox: 403 MAX_ITEMS_LIMIT_REACHED', async () => {
      const account = await accountOn('tiny');
      const inbox = await inboxOf(account);
      const { statuses } = await sync(system, account, times(5, (index) => ({ type: 'item_add', args: { content: `Inbox ${index}`, project_id: inbox } })));
      expect(statuses).toEqual(times(5, () => 'ok'));
      const viaApiV1 = await post(account, '/api/v1/tasks/quick', { text: 'One more tomorrow' });
      expect(viaApiV1.status).toBe(403);
      expect(viaApiV1.body).toMatchObject(limitReached('MAX_ITEMS_LIMIT_REACHED', 'max_tasks'));
      const viaSyncV9 = await post(account, '/sync/v9/quick/add', { text: 'And another' });
      expect(viaSyncV9.status).toBe(403);
      expect(JSON.stringify(viaSyncV9.body)).toContain('MAX_ITEMS_LIMIT_REACHED');
      expect(await system.sql('SELECT id FROM sync.items WHERE project_id = $1', [inbox])).toHaveLength(5);
    });
  });

  describe('features the plan leaves out (bare plan)', () => {
    it('refuses filters, labels, reminders, comments, durations and deadlines with 403 PREMIUM_ONLY naming the feature', async () => {
      const account = await accountOn('bare');
      const { statuses } = await sync(system, account, [
        { type: 'item_add', temp_id: 't', args: { content: 'Plain task', due: { date: '2030-04-30T18:00:00' } } },
        { type: 'filter_add', args: { name: 'Soon', query: 'today' } },
        { type: 'label_add', args: { name: 'errand' } },
        { type: 'reminder_add', args: { item_id: 't', minute_offset: 15 } },
        { type: 'note_add', args: { item_id: 't', content: 'A comment' } },
        { type: 'item_add', args: { content: 'Timed', due: { date: '2030-04-30T18:00:00' }, duration: { amount: 30, unit: 'minute' } } },
        { type: 'item_add', args: { content: 'Due soon', deadline: { date: '2030-05-01' } } },
      ]);
      expect(statuses[0]).toBe('ok');
      expect(statuses.slice(1)).toEqual([
        expect.objectContaining(premiumOnly('filters')),
        expect.objectContaining(premiumOnly('labels')),
        expect.objectContaining(premiumOnly('reminders')),
        expect.objectContaining(premiumOnly('comments')),
        expect.objectContaining(premiumOnly('durations')),
        expect.objectContaining(premiumOnly('deadlines')),
      ]);
    });

    it('refuses reading completed tasks with 403 PREMIUM_ONLY (completed_tasks)', async () => {
      const account = await accountOn('bare');
      const response = await http(system.url, 'GET', '/api/v1/tasks/completed/by_completion_date?since=2030-01-01T00:00:00Z&until=2030-02-01T00:00:00Z', { token: account.token });
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject(premiumOnly('completed_tasks'));
    });
  });

  describe('what an old generation kept for paid plans', () => {
    /** One command the way v8, v7 and v6 clients sent it: a form, the commands as JSON text, the token as a field. */
    const oldSync = async (path: string, account: Account, type: string, args: Record<string, unknown>): Promise<any> => {
      const uuid = `plans-old-${mode}-${++counter}`;
      const response = await http(system.url, 'POST', path, { form: { token: account.token, commands: JSON.stringify([{ type, uuid, temp_id: `t${counter}`, args }]) } });
      expect(response.status).toBe(200);
      return (response.body.sync_status ?? response.body.SyncStatus)[uuid];
    };
    const refused = (feature: string, plan: string) => expect.objectContaining({ error_tag: 'PREMIUM_ONLY', error_code: 32, http_code: 403, error_extra: { feature, plan } });

    it('refuses a free plan v8 project comments and v7/v6 filters (403 PREMIUM_ONLY), and nothing newer generations allow', async () => {
      const account = await accountOn('free');
      const projectId = await projectOf(account, 'Commented');
      expect(await oldSync('/sync/v8/sync', account, 'note_add', { project_id: Number(projectId), content: 'On the project' })).toEqual(refused('comments', 'free'));
      expect(await oldSync('/API/v7/sync', account, 'filter_add', { name: 'Soon', query: 'today' })).toEqual(refused('filters', 'free'));
      expect(await oldSync('/API/v6/sync', account, 'filter_add', { name: 'Soon', query: 'today' })).toEqual(refused('filters', 'free'));
      // task comments in v8, and both features in the newer generations, are the plan's flags alone
      const { mapping } = await sync(system, account, [{ type: 'item_add', temp_id: 'task', args: { content: 'Commented task', project_id: projectId } }]);
      expect(await oldSync('/sync/v8/sync', account, 'note_add', { item_id: Number(mapping['task']), content: 'On the task' })).toBe('ok');
      const { statuses } = await sync(system, account, [
        { type: 'note_add', args: { project_id: projectId, content: 'On the project (v9)' } },
        { type: 'filter_add', args: { name: 'Soon', query: 'today' } },
      ]);
      expect(statuses).toEqual(['ok', 'ok']);
      expect(await system.sql('SELECT id FROM sync.notes WHERE project_id = $1 AND item_id IS NULL', [projectId])).toHaveLength(1);
    });

    it('lets a paid plan add them in those generations', async () => {
      const account = await accountOn('pro');
      const projectId = await projectOf(account, 'Commented');
      expect(await oldSync('/sync/v8/sync', account, 'note_add', { project_id: Number(projectId), content: 'On the project' })).toBe('ok');
      expect(await oldSync('/API/v7/sync', account, 'filter_add', { name: 'Soon', query: 'today' })).toBe('ok');
    });
  });

  describe('batches and races', () => {
    it('a batch of 10 item_add with room for 3 applies 3 and refuses 7, each with its own status', async () => {
      const account = await accountOn('tiny');
      const projectId = await projectOf(account, 'Batch');
      expect((await sync(system, account, times(2, (index) => ({ type: 'item_add', args: { content: `Before ${index}`, project_id: projectId } })))).statuses).toEqual(['ok', 'ok']);
      const { statuses, mapping } = await sync(system, account, times(10, (index) => ({ type: 'item_add', temp_id: `b${index}`, args: { content: `Batch ${index}`, project_id: projectId } })));
      expect(statuses.slice(0, 3)).toEqual(['ok', 'ok', 'ok']);
      for (const status of statuses.slice(3)) expect(status).toMatchObject(limitReached('MAX_ITEMS_LIMIT_REACHED', 'max_tasks'));
      expect(Object.keys(mapping).sort()).toEqual(['b0', 'b1', 'b2']);
      const rows = await system.sql<{ content: string }>('SELECT content FROM sync.items WHERE project_id = $1 AND NOT is_deleted ORDER BY content', [projectId]);
      expect(rows.map((row) => row.content)).toEqual(['Batch 0', 'Batch 1', 'Batch 2', 'Before 0', 'Before 1']);
    });

    it('20 concurrent creators against a limit of 5 leave exactly 5', async () => {
      const account = await accountOn('tiny');
      const projectId = await projectOf(account, 'Race');
      const responses = await Promise.all(times(20, (index) => http(system.url, 'POST', '/api/v1/tasks', { token: account.token, json: { content: `Racer ${index}`, project_id: projectId } })));
      const statuses = responses.map((response) => response.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(5);
      expect(statuses.filter((status) => status === 403)).toHaveLength(15);
      expect(await system.sql('SELECT id FROM sync.items WHERE project_id = $1 AND NOT is_deleted', [projectId])).toHaveLength(5);
    });
  });

  it('serves the plan the limits are checked against', async () => {
    const account = await accountOn('tiny');
    expect((await planLimitsOf(system, account)).current).toMatchObject({ plan_name: 'tiny', ...TINY });
  });
});

/**
 * The operator edits the catalogue file and restarts the plans service (cluster: one app per
 * service): at start it publishes the new catalogue and announces the changed plan to its users,
 * whose next incremental sync carries it and whose next command is checked against it.
 */
describe('a catalogue change (cluster)', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'doable-plans-')), 'plans.json');
  const catalogue = JSON.parse(readFileSync(E2E_PLANS_FILE, 'utf8')) as { plans: Array<Record<string, unknown>> };
  writeFileSync(file, JSON.stringify(catalogue));
  const { system, accounts } = useSystem('cluster', { accounts: 2, env: { PLANS_FILE: file } });
  afterAll(() => rmSync(dirname(file), { recursive: true, force: true }));

  it('reaches the users of the changed plan when the plans service restarts, and nobody else', async () => {
    const [onTiny, onRoomy] = accounts;
    await setPlan(system, onTiny, 'tiny');
    const tokenOf = async (account: Account) =>
      (await http(system.url, 'POST', '/sync/v9/sync', { token: account.token, json: { sync_token: '*', resource_types: ['all'] } })).body.sync_token as string;
    const [tinyToken, roomyToken] = [await tokenOf(onTiny), await tokenOf(onRoomy)];

    const tiny = catalogue.plans.find((plan) => plan['plan_name'] === 'tiny')!;
    writeFileSync(file, JSON.stringify({ ...catalogue, plans: catalogue.plans.map((plan) => (plan === tiny ? { ...tiny, max_projects: 3 } : plan)) }));
    await system.cluster!.stop('plans');
    await system.cluster!.start('plans');

    const changed = await waitFor(async () => {
      const response = await http(system.url, 'POST', '/sync/v9/sync', { token: onTiny.token, json: { sync_token: tinyToken, resource_types: ['all'] } });
      return response.body.user_plan_limits?.current.max_projects === 3 ? response.body : undefined;
    }, 'the changed tiny plan in sync');
    expect(changed.user_plan_limits.current).toMatchObject({ plan_name: 'tiny', max_projects: 3, max_tasks: 5 });
    const untouched = await http(system.url, 'POST', '/sync/v9/sync', { token: onRoomy.token, json: { sync_token: roomyToken, resource_types: ['all'] } });
    expect(untouched.body.user_plan_limits).toBeUndefined();

    const { statuses } = await sync(system, onTiny, times(4, (index) => ({ type: 'project_add', args: { name: `P${index}` } })));
    expect(statuses.slice(0, 3)).toEqual(['ok', 'ok', 'ok']);
    expect(statuses[3]).toMatchObject({ error_tag: 'MAX_PROJECTS_LIMIT_REACHED', error_extra: { limit: 'max_projects', max_count: 3, plan: 'tiny' } });
  });
});
