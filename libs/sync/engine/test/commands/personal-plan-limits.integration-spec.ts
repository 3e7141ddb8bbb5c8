import type { PlanInfo } from '@doable/contracts-plans';
import { PlanLimitsHarness } from '../../testing/plan-limits.harness';

const ANN = '7301';
const BOB = '7302';

const ABSOLUTE = { type: 'absolute', due: { date: '2031-05-01T09:00:00Z' } };
const LOCATION = { type: 'location', name: 'Office', loc_lat: '52.52', loc_long: '13.40', loc_trigger: 'on_enter' };
const ATTACHMENT = { file_name: 'plan.pdf', file_type: 'application/pdf', file_url: 'https://files.limits.test/plan.pdf', resource_type: 'file' };

/** A refusal for a counted quantity, as sync_status carries it (public-api-facts §2.1). */
const limitReached = (tag: string, limit: string, maxCount: number, plan = 'tight') => ({
  error_tag: tag,
  http_code: 403,
  error_extra: expect.objectContaining({ limit, max_count: maxCount, plan }) as unknown,
});
const notInPlan = (feature: string, plan = 'tight') => ({ error_tag: 'PREMIUM_ONLY', error_code: 32, http_code: 403, error_extra: { feature, plan } });

describe('plan limits of labels, filters, reminders and comments (real PostgreSQL)', () => {
  let harness: PlanLimitsHarness;

  const plan = (userId: string, overrides: Partial<PlanInfo> = {}) => harness.plan(userId, { plan_name: 'tight', ...overrides });
  const run = async (userId: string, type: string, args: Record<string, unknown>) => (await harness.send(userId, [{ type, args }])).statuses[0];
  const labelsOf = (userId: string) => harness.count(`sync.labels WHERE user_id = $1 AND NOT is_deleted`, [userId]);
  const filtersOf = (userId: string) => harness.count(`sync.filters WHERE user_id = $1 AND NOT is_deleted`, [userId]);
  const remindersOn = (itemId: string) => harness.count(`sync.reminders WHERE item_id = $1 AND NOT is_deleted`, [itemId]);
  const notesOf = (userId: string) => harness.count(`sync.notes WHERE posted_uid = $1 AND NOT is_deleted`, [userId]);
  const task = (userId: string, content: string) => harness.made(userId, 'item_add', { content });
  const labelsOfTask = async (itemId: string) => (await harness.dataSource.query<Array<{ labels: string[] }>>(`SELECT labels FROM sync.items WHERE id = $1`, [itemId]))[0].labels;

  beforeAll(async () => {
    harness = await PlanLimitsHarness.start('personal_plan_limits');
    await harness.user(ANN);
    await harness.user(BOB);
  });

  afterAll(async () => {
    await harness.stop();
  });

  // Each test starts both users on a roomy plan named 'tight', then narrows what it tests.
  beforeEach(async () => {
    await plan(ANN);
    await plan(BOB);
  });

  describe('labels', () => {
    it('adds personal labels up to max_labels and refuses the next, writing nothing; a deleted label frees its place', async () => {
      await plan(ANN, { max_labels: (await labelsOf(ANN)) + 2 });
      const before = await labelsOf(ANN);
      expect(await run(ANN, 'label_add', { name: 'one' })).toBe('ok');
      const last = await harness.made(ANN, 'label_add', { name: 'two' });
      expect(await run(ANN, 'label_add', { name: 'three' })).toMatchObject(limitReached('MAX_LABELS_LIMIT_REACHED', 'max_labels', before + 2));
      expect(await labelsOf(ANN)).toBe(before + 2);

      expect(await run(ANN, 'label_delete', { id: last })).toBe('ok');
      expect(await run(ANN, 'label_add', { name: 'three' })).toBe('ok');
    });

    it('applies what fits of a batch and refuses the rest, each on its own', async () => {
      await plan(ANN, { max_labels: (await labelsOf(ANN)) + 1 });
      const { statuses } = await harness.send(ANN, [
        { type: 'label_add', args: { name: 'batch-a' } },
        { type: 'label_add', args: { name: 'batch-b' } },
        { type: 'label_add', args: { name: 'batch-c' } },
      ]);
      expect(statuses[0]).toBe('ok');
      expect(statuses.slice(1)).toEqual([expect.objectContaining({ error_tag: 'MAX_LABELS_LIMIT_REACHED' }), expect.objectContaining({ error_tag: 'MAX_LABELS_LIMIT_REACHED' })]);
      expect(await harness.count(`sync.labels WHERE user_id = $1 AND name LIKE 'batch-%'`, [ANN])).toBe(1);
    });

    it('refuses label_add without the labels feature, while tasks still carry any label names', async () => {
      await plan(ANN, { labels: false });
      const before = await labelsOf(ANN);
      expect(await run(ANN, 'label_add', { name: 'featureless' })).toMatchObject(notInPlan('labels'));
      const itemId = await harness.made(ANN, 'item_add', { content: 'Named', labels: ['featureless'] });
      expect(await labelsOfTask(itemId)).toEqual(['featureless']);
      expect(await labelsOf(ANN)).toBe(before);
    });

    it('quick add keeps a new label name on its task but creates no personal label the plan has no room for', async () => {
      await plan(ANN, { max_labels: await labelsOf(ANN) });
      const before = await labelsOf(ANN);
      const { status, id } = await harness.quickAdd(ANN, 'Call mum @phone-call');
      expect(status).toBe('ok');
      expect(await labelsOfTask(id!)).toEqual(['phone-call']);
      expect(await labelsOf(ANN)).toBe(before);

      // With room, the same line makes the personal label as before.
      await plan(ANN, { max_labels: before + 1 });
      expect((await harness.quickAdd(ANN, 'Call dad @phone-call')).status).toBe('ok');
      expect(await labelsOf(ANN)).toBe(before + 1);
    });
  });

  describe('filters', () => {
    it('adds filters up to max_filters and refuses the next, writing nothing', async () => {
      await plan(ANN, { max_filters: (await filtersOf(ANN)) + 2 });
      const before = await filtersOf(ANN);
      expect(await run(ANN, 'filter_add', { name: 'Today', query: 'today' })).toBe('ok');
      const last = await harness.made(ANN, 'filter_add', { name: 'Soon', query: '7 days' });
      expect(await run(ANN, 'filter_add', { name: 'Late', query: 'overdue' })).toMatchObject(limitReached('MAX_FILTERS_LIMIT_REACHED', 'max_filters', before + 2));
      expect(await filtersOf(ANN)).toBe(before + 2);

      expect(await run(ANN, 'filter_delete', { id: last })).toBe('ok');
      expect(await run(ANN, 'filter_add', { name: 'Late', query: 'overdue' })).toBe('ok');
    });

    it('refuses filter_add without the filters feature; an existing filter can still be changed', async () => {
      const filterId = await harness.made(ANN, 'filter_add', { name: 'Mine', query: 'assigned to: me' });
      await plan(ANN, { filters: false });
      const before = await filtersOf(ANN);
      expect(await run(ANN, 'filter_add', { name: 'More', query: 'p1' })).toMatchObject(notInPlan('filters'));
      expect(await filtersOf(ANN)).toBe(before);
      expect(await run(ANN, 'filter_update', { id: filterId, name: 'Mine only' })).toBe('ok');
    });
  });

  describe('reminders', () => {
    it('counts time reminders (absolute and relative) against max_reminders_time, apart from location ones', async () => {
      const itemId = await harness.made(ANN, 'item_add', { content: 'Dentist', due: { date: '2031-05-02T10:00:00Z' } });
      const existing = await harness.count(`sync.reminders WHERE notify_uid = $1 AND NOT is_deleted AND type <> 'location'`, [ANN]);
      await plan(ANN, { max_reminders_time: existing + 2, max_reminders_location: 5 });
      expect(await run(ANN, 'reminder_add', { item_id: itemId, ...LOCATION })).toBe('ok');
      expect(await run(ANN, 'reminder_add', { item_id: itemId, ...ABSOLUTE })).toBe('ok');
      const relative = await harness.made(ANN, 'reminder_add', { item_id: itemId, type: 'relative', minute_offset: 30 });
      expect(await run(ANN, 'reminder_add', { item_id: itemId, ...ABSOLUTE })).toMatchObject(limitReached('MAX_REMINDERS_LIMIT_REACHED', 'max_reminders_time', existing + 2));
      expect(await remindersOn(itemId)).toBe(3);

      expect(await run(ANN, 'reminder_delete', { id: relative })).toBe('ok');
      expect(await run(ANN, 'reminder_add', { item_id: itemId, ...ABSOLUTE })).toBe('ok');
    });

    it('counts location reminders against max_reminders_location (none on a plan with 0)', async () => {
      const itemId = await task(ANN, 'Groceries');
      const existing = await harness.count(`sync.reminders WHERE notify_uid = $1 AND NOT is_deleted AND type = 'location'`, [ANN]);
      await plan(ANN, { max_reminders_location: existing + 1 });
      expect(await run(ANN, 'reminder_add', { item_id: itemId, ...LOCATION })).toBe('ok');
      expect(await run(ANN, 'reminder_add', { item_id: itemId, ...LOCATION, name: 'Shop' })).toMatchObject(
        limitReached('MAX_LOCATION_REMINDERS_LIMIT_REACHED', 'max_reminders_location', existing + 1),
      );
      await plan(ANN, { max_reminders_location: 0 });
      expect(await run(ANN, 'reminder_add', { item_id: itemId, ...LOCATION, name: 'Market' })).toMatchObject(
        limitReached('MAX_LOCATION_REMINDERS_LIMIT_REACHED', 'max_reminders_location', 0),
      );
      expect(await remindersOn(itemId)).toBe(1);
    });

    it('refuses reminder_add without the reminders feature', async () => {
      const itemId = await task(ANN, 'Featureless reminder');
      await plan(ANN, { reminders: false });
      expect(await run(ANN, 'reminder_add', { item_id: itemId, ...ABSOLUTE })).toMatchObject(notInPlan('reminders'));
      expect(await remindersOn(itemId)).toBe(0);
    });

    it('holds a reminder set for a collaborator against that collaborator’s reminders and plan', async () => {
      const projectId = await harness.made(ANN, 'project_add', { name: 'Shared reminders' });
      expect(await harness.join(ANN, projectId, BOB)).toBe('ok');
      const itemId = await harness.made(ANN, 'item_add', { content: 'For Bob', project_id: projectId });

      await plan(BOB, { plan_name: 'bobs', max_reminders_time: 0 });
      expect(await run(ANN, 'reminder_add', { item_id: itemId, ...ABSOLUTE, notify_uid: BOB })).toMatchObject(limitReached('MAX_REMINDERS_LIMIT_REACHED', 'max_reminders_time', 0, 'bobs'));
      expect(await run(ANN, 'reminder_add', { item_id: itemId, ...ABSOLUTE })).toBe('ok');
      expect(await remindersOn(itemId)).toBe(1);
    });
  });

  describe('comments', () => {
    it('refuses task and project comments without the comments feature, writing nothing', async () => {
      const itemId = await task(ANN, 'Quiet task');
      const projectId = await harness.made(ANN, 'project_add', { name: 'Quiet project' });
      await plan(ANN, { comments: false });
      const before = await notesOf(ANN);
      expect(await run(ANN, 'note_add', { item_id: itemId, content: 'hello' })).toMatchObject(notInPlan('comments'));
      expect(await run(ANN, 'note_add', { project_id: projectId, content: 'hello' })).toMatchObject(notInPlan('comments'));
      expect(await notesOf(ANN)).toBe(before);
    });

    it('refuses a file attachment without the uploads feature, on a new comment or an edit; plain comments and unchanged attachments pass', async () => {
      const itemId = await task(ANN, 'Attachments');
      const withFile = await harness.made(ANN, 'note_add', { item_id: itemId, content: 'the plan', file_attachment: ATTACHMENT });
      const plain = await harness.made(ANN, 'note_add', { item_id: itemId, content: 'no file' });
      await plan(ANN, { uploads: false });
      const before = await notesOf(ANN);

      expect(await run(ANN, 'note_add', { item_id: itemId, content: 'another', file_attachment: ATTACHMENT })).toMatchObject(notInPlan('uploads'));
      expect(await notesOf(ANN)).toBe(before);
      expect(await run(ANN, 'note_add', { item_id: itemId, content: 'words only' })).toBe('ok');

      expect(await run(ANN, 'note_update', { id: plain, file_attachment: ATTACHMENT })).toMatchObject(notInPlan('uploads'));
      expect((await harness.dataSource.query<Array<{ file_attachment: unknown }>>(`SELECT file_attachment FROM sync.notes WHERE id = $1`, [plain]))[0].file_attachment).toBeNull();
      // A client sending the comment's attachment back with an edit uploads nothing new.
      expect(await run(ANN, 'note_update', { id: withFile, content: 'the new plan', file_attachment: { ...ATTACHMENT } })).toBe('ok');
      expect(await run(ANN, 'note_update', { id: withFile, file_attachment: null })).toBe('ok');
    });
  });
});
