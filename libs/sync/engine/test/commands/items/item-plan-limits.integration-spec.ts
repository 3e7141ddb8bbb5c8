import { BUILTIN_DEFAULT_LIMITS } from '@doable/contracts-plans';
import { PlanLimitsRepository } from '@doable/sync-domain';
import type { CommandStatus } from '../../../src/command-status';
import { PlanLimitsHarness } from '../../../testing/plan-limits.harness';

/** The owner of the capped projects: three open tasks a project. */
const OWNER = '9101';
/** A member of the owner's shared project, on a roomy plan of their own. */
const MEMBER = '9102';
/** On a plan without durations and deadlines. */
const BARE = '9103';
/** Whose plan changes between requests. */
const CHANGER = '9104';
/** The concurrency tests' owner (five tasks a project) and members. */
const BUSY = '9105';
const CROWD = Array.from({ length: 20 }, (_, n) => String(9200 + n));

const itemsRefusal = (projectId: string, maxCount = 3, plan = 'tiny') => ({
  error_tag: 'MAX_ITEMS_LIMIT_REACHED',
  error_code: 49,
  http_code: 403,
  error: 'Maximum number of items per user project limit reached',
  error_extra: { limit: 'max_tasks', max_count: maxCount, plan, project_id: projectId },
});
const featureRefusal = (feature: string) => expect.objectContaining({ error_tag: 'PREMIUM_ONLY', http_code: 403, error_extra: { feature, plan: 'bare' } });

describe('max_tasks and the task features in the task commands (real PostgreSQL)', () => {
  let harness: PlanLimitsHarness;
  let projectSeq = 0;
  /** A new project of the user's. */
  const project = (userId = OWNER) => harness.made(userId, 'project_add', { name: `P${++projectSeq}` });
  const task = (userId: string, projectId: string, args: Record<string, unknown> = {}) => harness.made(userId, 'item_add', { content: 'task', project_id: projectId, ...args });
  const status = async (userId: string, type: string, args: Record<string, unknown>) => (await harness.one(userId, type, args)).status;

  beforeAll(async () => {
    harness = await PlanLimitsHarness.start('item_plan_limits');
    await harness.user(OWNER, { plan_name: 'tiny', max_tasks: 3 });
    await harness.user(MEMBER);
    await harness.user(BARE, { plan_name: 'bare', durations: false, deadlines: false });
    await harness.user(CHANGER, { plan_name: 'tiny', max_tasks: 1 });
    await harness.user(BUSY, { plan_name: 'busy', max_tasks: 5 });
    for (const id of CROWD) await harness.user(id);
  });

  afterAll(async () => {
    await harness.stop();
  });

  it('writes the last task a project holds and refuses the next, alone or written together, writing nothing for it; completed tasks do not count', async () => {
    const full = await project();
    // Two written together (item_add's group), the third alone (a subtask runs alone).
    const { statuses, ids } = await harness.send(OWNER, [
      { type: 'item_add', temp_id: 'a', args: { content: 'a', project_id: full } },
      { type: 'item_add', temp_id: 'b', args: { content: 'b', project_id: full } },
    ]);
    expect(statuses).toEqual(['ok', 'ok']);
    const subtask = await task(OWNER, full, { parent_id: ids['a'] });
    expect(await harness.openTasks(full)).toBe(3);

    const before = await harness.written();
    expect(await status(OWNER, 'item_add', { content: 'one too many', parent_id: ids['b'] })).toEqual(itemsRefusal(full));
    expect(await status(OWNER, 'item_add', { content: 'one too many', project_id: full })).toEqual(itemsRefusal(full));
    expect(await harness.written()).toEqual(before);

    // A completed task leaves room: the subtask is checked, then its parent goes with its subtree.
    expect(await status(OWNER, 'item_complete', { id: subtask })).toBe('ok');
    await task(OWNER, full);
    expect(await status(OWNER, 'item_complete', { id: ids['a'] })).toBe('ok');
    await task(OWNER, full);
    expect(await status(OWNER, 'item_add', { content: 'full again', project_id: full })).toEqual(itemsRefusal(full));
  });

  it('applies a batch up to the limit and refuses the rest, each with its own status; each project takes its own room', async () => {
    const [first, second] = [await project(), await project()];
    const batch = Array.from({ length: 10 }, (_, n) => ({ type: 'item_add', temp_id: `t${n}`, args: { content: `batch ${n}`, project_id: first } }));
    const { statuses, ids } = await harness.send(OWNER, batch);
    expect(statuses).toEqual([...Array.from({ length: 3 }, () => 'ok'), ...Array.from({ length: 7 }, () => itemsRefusal(first))]);
    expect(Object.keys(ids)).toEqual(['t0', 't1', 't2']);
    const contents = await harness.dataSource.query<Array<{ content: string }>>(`SELECT content FROM sync.items WHERE project_id = $1 ORDER BY child_order`, [first]);
    expect(contents.map((row) => row.content)).toEqual(['batch 0', 'batch 1', 'batch 2']);

    // Interleaved: each project gets its first three.
    await task(OWNER, second);
    const mixed = Array.from({ length: 8 }, (_, n) => ({ type: 'item_add', args: { content: `mixed ${n}`, project_id: n % 2 === 0 ? second : first } }));
    expect((await harness.send(OWNER, mixed)).statuses).toEqual([
      'ok',
      itemsRefusal(first),
      'ok',
      itemsRefusal(first),
      itemsRefusal(second),
      itemsRefusal(first),
      itemsRefusal(second),
      itemsRefusal(first),
    ]);
    expect([await harness.openTasks(first), await harness.openTasks(second)]).toEqual([3, 3]);
  });

  it('counts the open tasks a move brings into another project, subtasks included, and not a move within it', async () => {
    const [source, target] = [await project(), await project()];
    const parent = await task(OWNER, source);
    await task(OWNER, source, { parent_id: parent });
    const done = await task(OWNER, source, { parent_id: parent });
    expect(await status(OWNER, 'item_complete', { id: done })).toBe('ok');
    const single = await harness.made(OWNER, 'item_add', { content: 'single', project_id: await project() });
    await task(OWNER, target);

    // Room for two: the parent and its open subtask fit, the completed one is not counted.
    expect(await status(OWNER, 'item_move', { id: parent, project_id: target })).toBe('ok');
    expect(await harness.openTasks(target)).toBe(3);
    const section = await harness.made(OWNER, 'section_add', { name: 'S', project_id: target });
    const before = await harness.written();
    expect(await status(OWNER, 'item_move', { id: single, project_id: target })).toEqual(itemsRefusal(target));
    expect(await status(OWNER, 'item_move', { id: single, section_id: section })).toEqual(itemsRefusal(target));
    expect(await status(OWNER, 'item_move', { id: single, parent_id: parent })).toEqual(itemsRefusal(target));
    expect(await harness.written()).toEqual(before);
    // Within the full project, tasks move freely.
    expect(await status(OWNER, 'item_move', { id: parent, section_id: section })).toBe('ok');
  });

  it('refuses to reopen a task into a full project: item_uncomplete, the undo of a completion, and reset subtasks', async () => {
    const full = await project();
    const reopened = await task(OWNER, full);
    await task(OWNER, full);
    expect(await status(OWNER, 'item_complete', { id: reopened })).toBe('ok');
    const extra = await task(OWNER, full);
    await task(OWNER, full);

    const before = await harness.written();
    expect(await status(OWNER, 'item_uncomplete', { id: reopened })).toEqual(itemsRefusal(full));
    expect(await status(OWNER, 'item_update_date_complete', { id: reopened, is_forward: false, due: { date: '2031-01-01' } })).toEqual(itemsRefusal(full));
    expect(await harness.written()).toEqual(before);
    expect(await status(OWNER, 'item_delete', { id: extra })).toBe('ok');
    expect(await status(OWNER, 'item_uncomplete', { id: reopened })).toBe('ok');
    expect(await harness.openTasks(full)).toBe(3);

    // Two checked subtasks unchecked at once, with room for one.
    const withSubtasks = await project();
    const parent = await task(OWNER, withSubtasks, { due: { string: 'every day' } });
    const subtasks = [await task(OWNER, withSubtasks, { parent_id: parent }), await task(OWNER, withSubtasks, { parent_id: parent })];
    for (const id of subtasks) expect(await status(OWNER, 'item_complete', { id })).toBe('ok');
    await task(OWNER, withSubtasks);
    const beforeReset = await harness.written();
    expect(await status(OWNER, 'item_update_date_complete', { id: parent, due: { date: '2031-01-02' }, reset_subtasks: true })).toEqual(itemsRefusal(withSubtasks));
    expect(await harness.written()).toEqual(beforeReset);
    expect(await status(OWNER, 'item_update_date_complete', { id: parent, due: { date: '2031-01-02' } })).toBe('ok');
  });

  it('refuses a quick add into a full project as item_add is refused', async () => {
    const full = await harness.made(OWNER, 'project_add', { name: 'Groceries' });
    expect((await harness.quickAdd(OWNER, 'Milk #Groceries')).status).toBe('ok');
    await task(OWNER, full);
    await task(OWNER, full);
    const before = await harness.written();
    expect((await harness.quickAdd(OWNER, 'Bread #Groceries')).status).toEqual(itemsRefusal(full));
    expect(await harness.written()).toEqual(before);
  });

  it("counts a shared project's tasks against its owner's plan, whoever adds them", async () => {
    const shared = await project();
    expect(await harness.join(OWNER, shared, MEMBER)).toBe('ok');
    await task(OWNER, shared);
    await task(MEMBER, shared);
    await task(MEMBER, shared);
    expect(await status(MEMBER, 'item_add', { content: 'over', project_id: shared })).toEqual(itemsRefusal(shared));
    // The member's own project holds what the member's plan allows, the owner adding too.
    const roomy = await project(MEMBER);
    expect(await harness.join(MEMBER, roomy, OWNER)).toBe('ok');
    for (let n = 0; n < 5; n++) await task(OWNER, roomy);
    expect(await harness.openTasks(roomy)).toBe(5);
  });

  it('checks the next request against a plan changed in between', async () => {
    const plans = new PlanLimitsRepository();
    const inbox = await harness.dataSource.query<Array<{ id: string }>>(`SELECT inbox_project_id::text AS id FROM sync.users WHERE id = $1`, [CHANGER]);
    await task(CHANGER, inbox[0].id);
    expect(await status(CHANGER, 'item_add', { content: 'second' })).toEqual(itemsRefusal(inbox[0].id, 1));
    const limits = (max: number) => ({ current: { ...BUILTIN_DEFAULT_LIMITS.current, plan_name: 'tiny', max_tasks: max }, next: null });
    await plans.store(harness.dataSource.manager, CHANGER, '2', limits(2));
    expect(await status(CHANGER, 'item_add', { content: 'second' })).toBe('ok');
    await plans.store(harness.dataSource.manager, CHANGER, '3', limits(1));
    // Over the new limit already: nothing is taken away, nothing more is added.
    expect(await status(CHANGER, 'item_add', { content: 'third' })).toEqual(itemsRefusal(inbox[0].id, 1));
    expect(await harness.openTasks(inbox[0].id)).toBe(2);
  });

  describe('durations and deadlines (the acting user plan features)', () => {
    it('refuses setting a duration or a deadline without the feature, alone or in a batch, and allows clearing one', async () => {
      const before = await harness.written();
      expect(await status(BARE, 'item_add', { content: 'timed', duration: { amount: 30, unit: 'minute' } })).toEqual(featureRefusal('durations'));
      expect(await status(BARE, 'item_add', { content: 'due by', deadline: { date: '2031-01-01' } })).toEqual(featureRefusal('deadlines'));
      expect(await harness.written()).toEqual(before);

      const { statuses } = await harness.send(BARE, [
        { type: 'item_add', temp_id: 'plain', args: { content: 'plain' } },
        { type: 'item_add', args: { content: 'timed', duration: { amount: 1, unit: 'day' } } },
        { type: 'item_add', args: { content: 'cleared', duration: null, deadline: null } },
      ]);
      expect(statuses).toEqual(['ok', featureRefusal('durations'), 'ok']);

      const id = await harness.made(BARE, 'item_add', { content: 'to update' });
      expect(await status(BARE, 'item_update', { id, duration: { amount: 15, unit: 'minute' } })).toEqual(featureRefusal('durations'));
      expect(await status(BARE, 'item_update', { id, deadline: { date: '2031-02-01' } })).toEqual(featureRefusal('deadlines'));
      expect(await status(BARE, 'item_update', { id, duration: null, deadline: null, content: 'updated' })).toBe('ok');
    });

    it('lets a plan with the features set them', async () => {
      const id = await harness.made(MEMBER, 'item_add', { content: 'timed', duration: { amount: 30, unit: 'minute' }, deadline: { date: '2031-01-01' } });
      expect(await status(MEMBER, 'item_update', { id, duration: { amount: 45, unit: 'minute' }, deadline: { date: '2031-01-02' } })).toBe('ok');
      const [row] = await harness.dataSource.query<Array<{ duration: unknown; deadline: { date: string } }>>(`SELECT duration, deadline FROM sync.items WHERE id = $1`, [id]);
      expect(row).toEqual({ duration: { amount: 45, unit: 'minute' }, deadline: expect.objectContaining({ date: '2031-01-02' }) });
    });
  });

  describe('concurrent requests against a limit of five', () => {
    const outcome = (statuses: CommandStatus[]) => ({
      ok: statuses.filter((one) => one === 'ok').length,
      refused: statuses.filter((one) => typeof one === 'object' && (one as { error_tag?: string }).error_tag === 'MAX_ITEMS_LIMIT_REACHED').length,
    });

    it('leaves exactly five tasks when twenty members add to a shared project at once', async () => {
      const shared = await project(BUSY);
      await harness.dataSource.query(
        `INSERT INTO sync.project_members (project_id, user_id, role, version) SELECT $1, unnest($2::bigint[]), 'READ_WRITE', 1`,
        [shared, CROWD],
      );
      const statuses = await Promise.all(CROWD.map(async (userId) => status(userId, 'item_add', { content: `by ${userId}`, project_id: shared })));
      expect(outcome(statuses)).toEqual({ ok: 5, refused: 15 });
      expect(await harness.openTasks(shared)).toBe(5);
    });

    it('leaves exactly five tasks when one user sends twenty requests at once, some placed alone', async () => {
      const own = await project(BUSY);
      const section = await harness.made(BUSY, 'section_add', { name: 'S', project_id: own });
      const statuses = await Promise.all(
        Array.from({ length: 20 }, async (_, n) => status(BUSY, 'item_add', n % 2 === 0 ? { content: `own ${n}`, project_id: own } : { content: `own ${n}`, section_id: section })),
      );
      expect(outcome(statuses)).toEqual({ ok: 5, refused: 15 });
      expect(await harness.openTasks(own)).toBe(5);
    });
  });

  it('gives an account with no stored plan the built-in free plan', async () => {
    const inbox = await harness.user('9106', 'builtin');
    await harness.dataSource.query(
      `INSERT INTO sync.items (user_id, project_id, content, child_order, version) SELECT $1, $2, 'seeded', n, 1 FROM generate_series(1, 299) AS n`,
      ['9106', inbox],
    );
    expect(await status('9106', 'item_add', { content: 'three hundredth' })).toBe('ok');
    expect(await status('9106', 'item_add', { content: 'one too many' })).toEqual(itemsRefusal(inbox, 300, 'free'));
    await harness.plan('9106');
    expect(await status('9106', 'item_add', { content: 'roomy now' })).toBe('ok');
  });
});
