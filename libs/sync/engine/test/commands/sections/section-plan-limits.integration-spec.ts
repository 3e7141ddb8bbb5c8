import { BUILTIN_DEFAULT_LIMITS } from '@doable/contracts-plans';
import { PlanLimitsRepository } from '@doable/sync-domain';
import { PlanLimitsHarness } from '../../../testing/plan-limits.harness';

/** Two sections and three open tasks a project. */
const OWNER = '9401';
/** A READ_WRITE member of the owner's shared project, on a roomy plan. */
const MEMBER = '9402';
/** Whose plan changes between requests. */
const CHANGER = '9403';

const sectionsRefusal = (projectId: string, maxCount = 2) => ({
  error_tag: 'MAX_SECTIONS_LIMIT_REACHED',
  error_code: 403,
  http_code: 403,
  error: 'Maximum number of sections per project limit reached',
  error_extra: { limit: 'max_sections', max_count: maxCount, plan: 'tiny', project_id: projectId },
});

describe('max_sections in the section and task commands (real PostgreSQL)', () => {
  let harness: PlanLimitsHarness;
  let seq = 0;
  const project = (userId = OWNER) => harness.made(userId, 'project_add', { name: `P${++seq}` });
  const section = (userId: string, projectId: string) => harness.made(userId, 'section_add', { name: `S${++seq}`, project_id: projectId });
  const status = async (userId: string, type: string, args: Record<string, unknown>) => (await harness.one(userId, type, args)).status;

  beforeAll(async () => {
    harness = await PlanLimitsHarness.start('section_plan_limits');
    await harness.user(OWNER, { plan_name: 'tiny', max_sections: 2, max_tasks: 3 });
    await harness.user(MEMBER);
    await harness.user(CHANGER, { plan_name: 'tiny', max_sections: 1 });
  });

  afterAll(async () => {
    await harness.stop();
  });

  it('holds as many sections as the plan allows and refuses the next, alone or in a batch, writing nothing', async () => {
    const full = await project();
    await section(OWNER, full);
    await section(OWNER, full);
    const before = await harness.written();
    expect(await status(OWNER, 'section_add', { name: 'third', project_id: full })).toEqual(sectionsRefusal(full));
    expect(await harness.written()).toEqual(before);

    const other = await project();
    const { statuses } = await harness.send(
      OWNER,
      Array.from({ length: 4 }, (_, n) => ({ type: 'section_add', args: { name: `batch ${n}`, project_id: other } })),
    );
    expect(statuses).toEqual(['ok', 'ok', sectionsRefusal(other), sectionsRefusal(other)]);
  });

  it('makes room for an archived or deleted section, and refuses to unarchive one into a full project', async () => {
    const full = await project();
    const archived = await section(OWNER, full);
    const deleted = await section(OWNER, full);
    expect(await status(OWNER, 'section_archive', { id: archived })).toBe('ok');
    const third = await section(OWNER, full);

    const before = await harness.written();
    expect(await status(OWNER, 'section_unarchive', { id: archived })).toEqual(sectionsRefusal(full));
    expect(await harness.written()).toEqual(before);
    // Unarchiving one that is not archived changes no count.
    expect(await status(OWNER, 'section_unarchive', { id: third })).toBe('ok');
    expect(await status(OWNER, 'section_delete', { id: deleted })).toBe('ok');
    expect(await status(OWNER, 'section_unarchive', { id: archived })).toBe('ok');
  });

  it('refuses to reopen a task whose archived section would pass the limit', async () => {
    const full = await project();
    const archived = await section(OWNER, full);
    const task = await harness.made(OWNER, 'item_add', { content: 'in the archived section', section_id: archived });
    // Archiving completes the section's open tasks.
    expect(await status(OWNER, 'section_archive', { id: archived })).toBe('ok');
    await section(OWNER, full);
    await section(OWNER, full);

    const before = await harness.written();
    expect(await status(OWNER, 'item_uncomplete', { id: task })).toEqual(sectionsRefusal(full));
    expect(await harness.written()).toEqual(before);
  });

  it('counts a section moved into another project, unless archived, and the open tasks it carries', async () => {
    const [source, full, fewTasks] = [await project(), await project(), await project()];
    await section(OWNER, full);
    await section(OWNER, full);
    const moving = await section(OWNER, source);
    const archived = await section(OWNER, source);
    expect(await status(OWNER, 'section_archive', { id: archived })).toBe('ok');

    const before = await harness.written();
    expect(await status(OWNER, 'section_move', { id: moving, project_id: full })).toEqual(sectionsRefusal(full));
    expect(await harness.written()).toEqual(before);
    expect(await status(OWNER, 'section_move', { id: archived, project_id: full })).toBe('ok');

    // Two open tasks into a project with room for one.
    await harness.made(OWNER, 'item_add', { content: 'a', section_id: moving });
    await harness.made(OWNER, 'item_add', { content: 'b', section_id: moving });
    await harness.made(OWNER, 'item_add', { content: 'c', project_id: fewTasks });
    await harness.made(OWNER, 'item_add', { content: 'd', project_id: fewTasks });
    const beforeTasks = await harness.written();
    expect(await status(OWNER, 'section_move', { id: moving, project_id: fewTasks })).toEqual(
      expect.objectContaining({ error_tag: 'MAX_ITEMS_LIMIT_REACHED', error_extra: { limit: 'max_tasks', max_count: 3, plan: 'tiny', project_id: fewTasks } }),
    );
    expect(await harness.written()).toEqual(beforeTasks);
  });

  it("counts a shared project's sections against its owner's plan, whoever adds them", async () => {
    const shared = await project();
    expect(await harness.join(OWNER, shared, MEMBER)).toBe('ok');
    await section(OWNER, shared);
    await section(MEMBER, shared);
    expect(await status(MEMBER, 'section_add', { name: 'over', project_id: shared })).toEqual(sectionsRefusal(shared));
    // The member's own project holds what the member's plan allows.
    const roomy = await project(MEMBER);
    for (let n = 0; n < 3; n++) await section(MEMBER, roomy);
  });

  it('checks the next request against a plan changed in between', async () => {
    const own = await project(CHANGER);
    await section(CHANGER, own);
    expect(await status(CHANGER, 'section_add', { name: 'second', project_id: own })).toEqual(sectionsRefusal(own, 1));
    await new PlanLimitsRepository().store(harness.dataSource.manager, CHANGER, '2', { current: { ...BUILTIN_DEFAULT_LIMITS.current, plan_name: 'tiny', max_sections: 2 }, next: null });
    expect(await status(CHANGER, 'section_add', { name: 'second', project_id: own })).toBe('ok');
  });
});
