import { BUILTIN_DEFAULT_LIMITS } from '@doable/contracts-plans';
import { PlanLimitsRepository } from '@doable/sync-domain';
import { PlanLimitsHarness } from '../../../testing/plan-limits.harness';

/** Three active projects of their own, one project of someone else's. */
const CAPPED = '9301';
/** Owns the projects the others join; roomy. */
const HOST = '9302';
/** Whose plan changes between requests. */
const CHANGER = '9303';
/** Sends a batch crossing the limit. */
const BATCH = '9304';
/** One active project; HOST is an ADMIN in it. */
const SOLO = '9305';
/** No stored plan: the built-in free one. */
const NEWCOMER = '9306';

const projectsRefusal = (maxCount = 3, plan = 'tiny') => ({
  error_tag: 'MAX_PROJECTS_LIMIT_REACHED',
  error_code: 403,
  http_code: 403,
  error: 'Maximum number of active projects limit reached',
  error_extra: { limit: 'max_projects', max_count: maxCount, plan },
});
const joinedRefusal = {
  error_tag: 'MAX_PROJECTS_JOINED_LIMIT_REACHED',
  error_code: 403,
  http_code: 403,
  error: 'Maximum number of joined projects limit reached',
  error_extra: { limit: 'max_projects_joined', max_count: 1, plan: 'tiny' },
};

describe('max_projects and max_projects_joined in the project and sharing commands (real PostgreSQL)', () => {
  let harness: PlanLimitsHarness;
  let seq = 0;
  const project = (userId: string, args: Record<string, unknown> = {}) => harness.made(userId, 'project_add', { name: `P${++seq}`, ...args });
  const status = async (userId: string, type: string, args: Record<string, unknown>) => (await harness.one(userId, type, args)).status;
  const activeOwned = async (userId: string) =>
    (
      await harness.dataSource.query<Array<{ n: number }>>(
        `SELECT count(*)::int AS n FROM sync.projects WHERE owner_id = $1 AND NOT is_archived AND NOT is_deleted AND NOT inbox_project`,
        [userId],
      )
    )[0].n;

  beforeAll(async () => {
    harness = await PlanLimitsHarness.start('project_plan_limits');
    await harness.user(CAPPED, { plan_name: 'tiny', max_projects: 3, max_projects_joined: 1 });
    await harness.user(HOST);
    await harness.user(CHANGER, { plan_name: 'tiny', max_projects: 1 });
    await harness.user(BATCH, { plan_name: 'tiny', max_projects: 3 });
    await harness.user(SOLO, { plan_name: 'tiny', max_projects: 1 });
    await harness.user(NEWCOMER, 'builtin');
  });

  afterAll(async () => {
    await harness.stop();
  });

  it('holds as many active projects as the plan allows besides the Inbox, and refuses the next however it is added, writing nothing', async () => {
    const first = await project(CAPPED);
    await project(CAPPED, { parent_id: first });
    await project(CAPPED);
    expect(await activeOwned(CAPPED)).toBe(3);
    const before = await harness.written();
    const { statuses } = await harness.send(CAPPED, [
      { type: 'project_add', args: { name: 'fourth' } },
      { type: 'project_add', args: { name: 'nested fourth', parent_id: first } },
      { type: 'project_add_flat', args: { name: 'flat fourth', item_order: 1, indent: 1 } },
    ]);
    expect(statuses).toEqual([projectsRefusal(), projectsRefusal(), projectsRefusal()]);
    expect(await harness.written()).toEqual(before);
  });

  it('applies a batch up to the limit and refuses the rest', async () => {
    const batch = Array.from({ length: 5 }, (_, n) => ({ type: 'project_add', temp_id: `p${n}`, args: { name: `batch ${n}` } }));
    const { statuses, ids } = await harness.send(BATCH, batch);
    expect(statuses).toEqual(['ok', 'ok', 'ok', projectsRefusal(), projectsRefusal()]);
    expect(Object.keys(ids)).toEqual(['p0', 'p1', 'p2']);
  });

  it('makes room for an archived or deleted project, and refuses to unarchive one into a full set', async () => {
    const [archived] = (await harness.dataSource.query<Array<{ id: string }>>(`SELECT id::text FROM sync.projects WHERE owner_id = $1 AND parent_id IS NULL AND NOT inbox_project ORDER BY id LIMIT 1`, [CAPPED])).map(
      (row) => row.id,
    );
    expect(await status(CAPPED, 'project_archive', { id: archived })).toBe('ok');
    // The archived parent's sub-project went with it: two rooms free.
    const replacement = await project(CAPPED);
    await project(CAPPED);
    expect(await activeOwned(CAPPED)).toBe(3);

    const before = await harness.written();
    expect(await status(CAPPED, 'project_unarchive', { id: archived })).toEqual(projectsRefusal());
    expect(await harness.written()).toEqual(before);
    // An active project unarchived again changes no count.
    expect(await status(CAPPED, 'project_unarchive', { id: replacement })).toBe('ok');

    expect(await status(CAPPED, 'project_delete', { id: replacement })).toBe('ok');
    expect(await status(CAPPED, 'project_unarchive', { id: archived })).toBe('ok');
    expect(await activeOwned(CAPPED)).toBe(3);
  });

  it("counts a project an ADMIN unarchives against its owner's plan", async () => {
    const shared = await project(SOLO);
    expect(await harness.join(SOLO, shared, HOST, 'ADMIN')).toBe('ok');
    expect(await status(SOLO, 'project_archive', { id: shared })).toBe('ok');
    await project(SOLO);
    const before = await harness.written();
    expect(await status(HOST, 'project_unarchive', { id: shared })).toEqual(projectsRefusal(1));
    expect(await harness.written()).toEqual(before);
  });

  it("counts joined projects apart from the user's own, and refuses an invitation past max_projects_joined, leaving it open", async () => {
    // Full on their own projects, CAPPED may still join one of someone else's.
    expect(await activeOwned(CAPPED)).toBe(3);
    const [first, second] = [await project(HOST), await project(HOST)];
    expect(await harness.join(HOST, first, CAPPED)).toBe('ok');

    expect(await harness.join(HOST, second, CAPPED)).toEqual(joinedRefusal);
    const [invitation] = await harness.dataSource.query<Array<{ id: string; state: string }>>(
      `SELECT id::text, state FROM sync.project_invitations WHERE project_id = $1 ORDER BY id DESC LIMIT 1`,
      [second],
    );
    expect(invitation.state).toBe('invited');
    const members = await harness.dataSource.query(`SELECT 1 FROM sync.project_members WHERE project_id = $1 AND user_id = $2`, [second, CAPPED]);
    expect(members).toEqual([]);

    // Leaving the first makes room: the same invitation is accepted now.
    expect(await status(CAPPED, 'project_leave', { project_id: first })).toBe('ok');
    const [{ payload }] = await harness.dataSource.query<Array<{ payload: { invitationId: string; invitationSecret: string } }>>(
      `SELECT payload FROM sync.outbox WHERE subject = 'sync.evt.share-invitation-sent.v1' ORDER BY id DESC LIMIT 1`,
    );
    expect(await status(CAPPED, 'accept_invitation', { invitation_id: payload.invitationId, invitation_secret: payload.invitationSecret })).toBe('ok');
  });

  it('refuses an accept that would pass max_projects_joined and writes nothing for it', async () => {
    const third = await project(HOST);
    const { status: shared } = await harness.one(HOST, 'share_project', { project_id: third, email: `${CAPPED}@limits.test` });
    expect(shared).toBe('ok');
    const [{ payload }] = await harness.dataSource.query<Array<{ payload: { invitationId: string; invitationSecret: string } }>>(
      `SELECT payload FROM sync.outbox WHERE subject = 'sync.evt.share-invitation-sent.v1' ORDER BY id DESC LIMIT 1`,
    );
    const before = await harness.written();
    expect(await status(CAPPED, 'accept_invitation', { invitation_id: payload.invitationId, invitation_secret: payload.invitationSecret })).toEqual(joinedRefusal);
    expect(await harness.written()).toEqual(before);
  });

  it('checks the next request against a plan changed in between', async () => {
    await project(CHANGER);
    expect(await status(CHANGER, 'project_add', { name: 'second' })).toEqual(projectsRefusal(1));
    await new PlanLimitsRepository().store(harness.dataSource.manager, CHANGER, '2', { current: { ...BUILTIN_DEFAULT_LIMITS.current, plan_name: 'tiny', max_projects: 2 }, next: null });
    expect(await status(CHANGER, 'project_add', { name: 'second' })).toBe('ok');
    expect(await status(CHANGER, 'project_add', { name: 'third' })).toEqual(projectsRefusal(2));
  });

  it('gives an account with no stored plan the built-in free plan: five projects', async () => {
    for (let n = 0; n < 5; n++) await project(NEWCOMER);
    expect(await status(NEWCOMER, 'project_add', { name: 'sixth' })).toEqual(projectsRefusal(5, 'free'));
  });
});
