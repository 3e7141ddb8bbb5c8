import { waitFor } from '@doable/shared-testing';
import { TodoistApi as TodoistApiV11 } from 'todoist-sdk-v11';
import { runClient } from './support/clients';
import { setPlan } from './support/plans';
import { syncSession } from './support/sync-session';
import { MODES } from './support/system-view';
import { useSystem } from './support/use-system';

/** SDK 11's types leave out 'all', which the Sync API takes (SDK 17 lists it); the request is the same. */
const EVERYTHING = ['all'] as unknown as NonNullable<Parameters<TodoistApiV11['sync']>[0]['resourceTypes']>;

/**
 * user_plan_limits is the one resource the official SDKs disagree on: @doist/todoist-sdk 11 (CJS,
 * what @doist/todoist-api-typescript 7.10 and the MCP server run on Node 20) validates
 * `activity_log` as an integer, 17 (ESM) as a boolean, and both send the same request. api/v1
 * leaves the key out, which both accept (sync-api-v1/plan-limits.writer.ts); sync v9 keeps the
 * spec's boolean. Both SDKs validate a full sync of one account with data of every kind.
 */
describe.each(MODES)('plan limits and the two official SDK generations (%s)', (mode) => {
  const { system, account } = useSystem(mode);
  const { sync, run } = syncSession(() => system, () => account, 'sdk-versions');

  beforeAll(async () => {
    const { statuses } = await run(
      { type: 'project_add', temp_id: 'p', args: { name: 'Garden' } },
      { type: 'section_add', temp_id: 's', args: { name: 'Beds', project_id: 'p' } },
      { type: 'label_add', args: { name: 'outside' } },
      { type: 'filter_add', args: { name: 'Outside', query: '@outside' } },
      { type: 'item_add', temp_id: 't', args: { content: 'Dig', project_id: 'p', section_id: 's', labels: ['outside'], due: { date: '2030-04-30T09:00:00' }, duration: { amount: 45, unit: 'minute' }, deadline: { date: '2030-05-02' } } },
      { type: 'item_add', args: { content: 'Plant', parent_id: 't' } },
      { type: 'note_add', args: { item_id: 't', content: 'Spade is in the shed' } },
      { type: 'reminder_add', args: { item_id: 't', minute_offset: 30 } },
    );
    expect(statuses).toEqual(Array.from({ length: 8 }, () => 'ok'));
  });

  it('sync v9 carries activity_log as a boolean; api/v1 leaves it out', async () => {
    const v9 = await sync({ sync_token: '*', resource_types: ['user_plan_limits'] }, '/sync/v9/sync');
    expect(typeof v9.user_plan_limits.current.activity_log).toBe('boolean');
    expect(v9.user_plan_limits.current).toMatchObject({ plan_name: 'roomy', activity_log: true, activity_log_limit: -1 });
    const v1 = await sync({ sync_token: '*', resource_types: ['user_plan_limits'] }, '/api/v1/sync');
    expect(v1.user_plan_limits.current).not.toHaveProperty('activity_log');
    expect(v1.user_plan_limits.current).toMatchObject({ plan_name: 'roomy', activity_log_limit: -1, max_tasks: 100000 });
  });

  it('@doist/todoist-sdk 11 (CJS) validates a full sync of everything, and an incremental one', async () => {
    const api = new TodoistApiV11(account.token, { baseUrl: system.url });
    const full = await api.sync({ syncToken: '*', resourceTypes: EVERYTHING });
    expect(full.fullSync).toBe(true);
    expect(full.userPlanLimits?.current.planName).toBe('roomy');
    expect(full.userPlanLimits?.current.activityLog).toBeUndefined();
    expect(full.items?.map((item) => item.content).sort()).toEqual(['Dig', 'Plant']);
    expect([full.projects?.length, full.sections?.length, full.labels?.length, full.filters?.length, full.notes?.length, full.reminders?.length]).toEqual([2, 1, 1, 1, 1, 1]);

    await run({ type: 'item_add', args: { content: 'Water' } });
    const incremental = await api.sync({ syncToken: full.syncToken!, resourceTypes: EVERYTHING });
    expect(incremental.fullSync).toBe(false);
    expect(incremental.items?.map((item) => item.content)).toEqual(['Water']);
  });

  it('@doist/todoist-sdk 17 (ESM) validates a full sync of the same account', async () => {
    const report = await runClient('todoist-sdk-full-sync.mjs', { DOABLE_URL: system.url, DOABLE_TOKEN: account.token });
    expect(report.fullSync).toBe(true);
    expect(report.counts).toMatchObject({ projects: 2, sections: 1, labels: 1, filters: 1, items: 3, notes: 1, reminders: 1 });
  });

  it('both validate a plan change an incremental sync announces, with an upgrade on offer (next)', async () => {
    const api = new TodoistApiV11(account.token, { baseUrl: system.url });
    const { syncToken } = await api.sync({ syncToken: '*', resourceTypes: EVERYTHING });
    await setPlan(system, account, 'pro');

    const incremental = await api.sync({ syncToken: syncToken!, resourceTypes: EVERYTHING });
    expect(incremental.fullSync).toBe(false);
    expect([incremental.userPlanLimits?.current.planName, incremental.userPlanLimits?.next?.planName]).toEqual(['pro', 'business']);
    const report = await runClient('todoist-sdk-full-sync.mjs', { DOABLE_URL: system.url, DOABLE_TOKEN: account.token });
    expect(report.fullSync).toBe(true);

    const v1 = await sync({ sync_token: '*', resource_types: ['user_plan_limits'] }, '/api/v1/sync');
    expect(v1.user_plan_limits.next).toMatchObject({ plan_name: 'business' });
    expect(v1.user_plan_limits.next).not.toHaveProperty('activity_log');
    const v9 = await sync({ sync_token: '*', resource_types: ['user_plan_limits'] }, '/sync/v9/sync');
    expect([v9.user_plan_limits.current.activity_log, v9.user_plan_limits.next.activity_log]).toEqual([true, true]);
  });

  it('both validate the live notification a plan produces (share_invitation_blocked_by_project_limit)', async () => {
    await setPlan(system, account, 'one-seat');
    const { mapping } = await run({ type: 'project_add', temp_id: 'shared', args: { name: 'Seats' } });
    const { statuses } = await run(
      { type: 'share_project', args: { project_id: mapping['shared'], email: 'first-seat@sdk-versions.test' } },
      { type: 'share_project', args: { project_id: mapping['shared'], email: 'no-seat@sdk-versions.test' } },
    );
    expect(statuses[0]).toBe('ok');
    expect(statuses[1]).toMatchObject({ error_tag: 'MAX_COLLABORATORS_LIMIT_REACHED' });

    const api = new TodoistApiV11(account.token, { baseUrl: system.url });
    const blocked = await waitFor(async () => {
      const full = await api.sync({ syncToken: '*', resourceTypes: EVERYTHING });
      return full.liveNotifications?.find((notification) => notification.notificationType === 'share_invitation_blocked_by_project_limit');
    }, 'the blocked-invitation notification');
    expect(blocked).toMatchObject({ projectId: mapping['shared'], fromUid: account.userId });
    const report = await runClient('todoist-sdk-full-sync.mjs', { DOABLE_URL: system.url, DOABLE_TOKEN: account.token });
    expect(report.fullSync).toBe(true);
    expect(report.counts.liveNotifications).toBeGreaterThanOrEqual(1);
  });
});
