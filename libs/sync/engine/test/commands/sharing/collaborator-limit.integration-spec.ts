import { randomUUID } from 'node:crypto';
import type { ShareInvitationBlocked } from '@doable/contracts-sync';
import { emailOf, type HarnessCommand, PlanLimitsHarness } from '../../../testing/plan-limits.harness';

const ANN = '7401';
const BOB = '7402';
const CAT = '7403';

const BLOCKED = 'sync.evt.share-invitation-blocked.v1';

describe('share_project under the owner’s max_collaborators (real PostgreSQL)', () => {
  let harness: PlanLimitsHarness;

  const runAll = async (userId: string, commands: HarnessCommand[]) => (await harness.send(userId, commands)).statuses;
  const share = (projectId: string, email: string, uuid?: string): HarnessCommand => ({ type: 'share_project', uuid, args: { project_id: projectId, email } });
  const run = async (userId: string, command: HarnessCommand) => (await runAll(userId, [command]))[0];

  const addProject = (owner: string, name: string) => harness.made(owner, 'project_add', { name });
  const invitationsTo = async (projectId: string) =>
    (await harness.dataSource.query<Array<{ email: string; state: string }>>(`SELECT invitee_email AS email, state FROM sync.project_invitations WHERE project_id = $1 ORDER BY id`, [projectId])).map(
      (row) => `${row.email}:${row.state}`,
    );
  const projectVersion = async (projectId: string) =>
    (await harness.dataSource.query<Array<{ version: string }>>(`SELECT version::text FROM sync.projects WHERE id = $1`, [projectId]))[0].version;
  /** Makes the user a member through an invitation they accept. */
  const join = async (projectId: string, userId: string) => expect(await harness.join(ANN, projectId, userId)).toBe('ok');
  const refusal = (maxCount: number, projectId: string, planName = 'tight') => ({
    error_tag: 'MAX_COLLABORATORS_LIMIT_REACHED',
    http_code: 403,
    error_extra: { limit: 'max_collaborators', max_count: maxCount, plan: planName, project_id: projectId },
  });

  beforeAll(async () => {
    harness = await PlanLimitsHarness.start('collaborator_limit');
    // All start with room for everything; each test caps Ann, the owner, whose plan is what counts.
    for (const id of [ANN, BOB, CAT]) await harness.user(id);
  });

  afterAll(async () => {
    await harness.stop();
  });

  it('counts members besides the owner and open invitations: the last seat is given, the next share refused, leaving only the blocked event', async () => {
    await harness.plan(ANN, { plan_name: 'tight', max_collaborators: 2 });
    const projectId = await addProject(ANN, 'Seats');
    await join(projectId, BOB);
    expect(await run(ANN, share(projectId, 'someone@seats.test'))).toBe('ok');

    const version = await projectVersion(projectId);
    const outbox = await harness.count('sync.outbox');
    const blockedBefore = (await harness.events(BLOCKED)).length;
    expect(await run(ANN, share(projectId, 'late@seats.test'))).toEqual(expect.objectContaining(refusal(2, projectId)));

    expect(await invitationsTo(projectId)).toEqual([`${emailOf(BOB)}:accepted`, 'someone@seats.test:invited']);
    expect(await projectVersion(projectId)).toBe(version);
    expect(await harness.count('sync.outbox')).toBe(outbox + 1);
    const blocked = await harness.events<ShareInvitationBlocked>(BLOCKED);
    expect(blocked).toHaveLength(blockedBefore + 1);
    expect(blocked.at(-1)).toEqual({
      projectId,
      projectName: 'Seats',
      inviter: { id: ANN, email: emailOf(ANN), full_name: `User ${ANN}`, image_id: null },
      inviteeEmail: 'late@seats.test',
      ownerId: ANN,
      maxCount: 2,
    });
  });

  it('emits the blocked event once per refused command: a replay of its uuid answers the same refusal and emits nothing', async () => {
    await harness.plan(ANN, { plan_name: 'tight', max_collaborators: 0 });
    const projectId = await addProject(ANN, 'Replayed');
    const uuid = randomUUID();
    const first = await run(ANN, share(projectId, 'again@seats.test', uuid));
    expect(first).toEqual(expect.objectContaining(refusal(0, projectId)));
    const blocked = (await harness.events(BLOCKED)).length;

    expect(await run(ANN, share(projectId, 'again@seats.test', uuid))).toEqual(first);
    expect(await harness.events(BLOCKED)).toHaveLength(blocked);
  });

  it('emits once when a refusal loses the optimistic pass, beside commands that succeed', async () => {
    await harness.plan(ANN, { plan_name: 'tight', max_collaborators: 1 });
    const projectId = await addProject(ANN, 'Batch');
    const blocked = (await harness.events(BLOCKED)).length;
    const statuses = await runAll(ANN, [
      share(projectId, 'first@seats.test'),
      share(projectId, 'second@seats.test'),
      { type: 'item_add', args: { content: 'After the refusal', project_id: projectId } },
    ]);
    expect(statuses[0]).toBe('ok');
    expect(statuses[1]).toEqual(expect.objectContaining(refusal(1, projectId)));
    expect(statuses[2]).toBe('ok');
    const emitted = (await harness.events<ShareInvitationBlocked>(BLOCKED)).slice(blocked);
    expect(emitted.map((event) => event.inviteeEmail)).toEqual(['second@seats.test']);
    expect(await invitationsTo(projectId)).toEqual(['first@seats.test:invited']);
  });

  it('lets an open invitation be sent again when full (no new seat), and frees a seat when one is withdrawn', async () => {
    await harness.plan(ANN, { plan_name: 'tight', max_collaborators: 1 });
    const projectId = await addProject(ANN, 'Resend');
    expect(await run(ANN, share(projectId, 'waiting@seats.test'))).toBe('ok');
    expect(await run(ANN, share(projectId, 'waiting@seats.test'))).toBe('ok');
    expect(await run(ANN, share(projectId, 'other@seats.test'))).toEqual(expect.objectContaining(refusal(1, projectId)));

    const [open] = await harness.dataSource.query<Array<{ id: string }>>(`SELECT id::text FROM sync.project_invitations WHERE project_id = $1 AND state = 'invited'`, [projectId]);
    expect(await run(ANN, { type: 'delete_invitation', args: { invitation_id: open.id } })).toBe('ok');
    expect(await run(ANN, share(projectId, 'other@seats.test'))).toBe('ok');
  });

  it('holds a member’s invitations against the owner’s plan, and tells the inviter and the owner', async () => {
    await harness.plan(ANN, { plan_name: 'owners', max_collaborators: 1 });
    const projectId = await addProject(ANN, 'Owned');
    await join(projectId, BOB);
    expect(await run(BOB, share(projectId, emailOf(CAT)))).toEqual(expect.objectContaining(refusal(1, projectId, 'owners')));
    expect((await harness.events<ShareInvitationBlocked>(BLOCKED)).at(-1)).toMatchObject({ projectId, inviter: { id: BOB }, inviteeEmail: emailOf(CAT), ownerId: ANN, maxCount: 1 });

    // Leaving frees the seat.
    expect(await run(BOB, { type: 'project_leave', args: { project_id: projectId } })).toBe('ok');
    expect(await run(ANN, share(projectId, emailOf(CAT)))).toBe('ok');
  });

  it('keeps to the limit when members of one project invite at the same time', async () => {
    await harness.plan(ANN, { plan_name: 'tight', max_collaborators: 2 });
    const projectId = await addProject(ANN, 'Race');
    await join(projectId, BOB);
    // One seat left; the owner and a member both try to take it at once.
    const statuses = await Promise.all([run(ANN, share(projectId, 'ann-pick@seats.test')), run(BOB, share(projectId, 'bob-pick@seats.test'))]);
    expect(statuses.filter((status) => status === 'ok')).toHaveLength(1);
    expect(statuses.filter((status) => status !== 'ok')).toEqual([expect.objectContaining({ error_tag: 'MAX_COLLABORATORS_LIMIT_REACHED' })]);
    expect((await invitationsTo(projectId)).filter((row) => row.endsWith(':invited'))).toHaveLength(1);
  });
});
