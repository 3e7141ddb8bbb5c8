import { randomUUID } from 'node:crypto';
import type { UsersChanged, WorkspaceInvitationAnswered, WorkspaceInvitationSent } from '@doable/contracts-sync';
import type { Database } from '@doable/shared-runtime';
import type { DataSource } from 'typeorm';
import { NewAccounts, ProjectInvitationsRepository, WorkspaceInvitationsRepository, WorkspaceMembersRepository, WorkspaceRepository } from '@doable/sync-domain';
import { giveWorkspacePlan } from '@doable/sync-domain/testing';
import { type MailedInvitationsHarness, startMailedInvitationsHarness } from '../../testing/mailed-invitations.harness';
import { MailedWorkspaceInvitations } from './mailed-workspace-invitations';

const ANN = '7621';
const BOB = '7622';
const EMAIL: Record<string, string> = { [ANN]: 'ann@mailed-ws.test', [BOB]: 'bob@mailed-ws.test' };

const SENT = 'sync.evt.workspace-invitation-sent.v1';
const ANSWERED = 'sync.evt.workspace-invitation-answered.v1';
const CHANGED = 'sync.evt.users-changed.v1';

/**
 * The decline of a workspace invitation from its mail, by the invitation's id and secret, with
 * no account to act as (MailedWorkspaceInvitations, behind auth-oauth's decline page): real
 * PostgreSQL, the invitations made and answered by the real commands. The steps it shares with
 * a project's (retries, all or nothing, a wrong secret) are mailed-invitations.integration-spec's.
 */
describe('declining a workspace invitation from its mail, without an account (real PostgreSQL)', () => {
  let harness: MailedInvitationsHarness;
  let dataSource: DataSource;
  let db: Database;
  let accounts: NewAccounts;
  let mailed: MailedWorkspaceInvitations;
  let counter = 0;

  const statusOf = (userId: string, type: string, args: Record<string, unknown>, tempId?: string) => harness.statusOf(userId, type, args, tempId);
  const events = <P>(subject: string): Promise<P[]> => harness.events<P>(subject);
  const answersOf = async (invitationId: string) => (await events<WorkspaceInvitationAnswered>(ANSWERED)).filter((event) => event.invitationId === invitationId);
  const invitationRow = async (id: string) =>
    (await dataSource.query<Array<{ state: string; invitee_id: string | null; version: string }>>(`SELECT state, invitee_id::text, version::text FROM sync.workspace_invitations WHERE id = $1`, [id]))[0];
  const highWater = (userId: string) => harness.highWater(userId);
  const workspaceVersion = async (id: string) => BigInt((await dataSource.query<Array<{ version: string }>>(`SELECT version::text FROM sync.workspaces WHERE id = $1`, [id]))[0].version);

  /** A new address without an account, invited by Ann to a new workspace (Bob its other admin): the event its mail is made from. */
  const inviteStranger = async (workspaceName = `Acme ${++counter}`): Promise<WorkspaceInvitationSent & { readonly email: string }> => {
    const { status, mapping } = await statusOf(ANN, 'workspace_add', { name: workspaceName }, 'w');
    expect(status).toBe('ok');
    const workspaceId = mapping['w'];
    await giveWorkspacePlan(dataSource.manager, workspaceId, 'BUSINESS');
    await dataSource.transaction(async (manager) => {
      const [{ version }] = await manager.query<Array<{ version: string }>>(`SELECT nextval('sync.change_version')::text AS version`);
      await new WorkspaceMembersRepository().addOrReactivate(manager, workspaceId, BOB, 'ADMIN', version);
    });
    const email = `stranger-${counter}-${randomUUID().slice(0, 8)}@mailed-ws.test`;
    expect((await statusOf(ANN, 'workspace_invite', { workspace_id: workspaceId, email_list: [email], role: 'MEMBER' })).status).toBe('ok');
    const sent = (await events<WorkspaceInvitationSent>(SENT)).at(-1)!;
    expect(sent).toMatchObject({ workspaceId, inviteeEmail: email, inviteeId: null });
    return { ...sent, email };
  };
  const pairOf = (sent: WorkspaceInvitationSent) => ({ invitationId: sent.invitationId, invitationSecret: sent.invitationSecret });

  beforeAll(async () => {
    harness = await startMailedInvitationsHarness('mailed_workspace_invitations', { [ANN]: { email: EMAIL[ANN], fullName: 'Ann <Admin>' }, [BOB]: { email: EMAIL[BOB], fullName: 'Bob' } });
    ({ dataSource, db } = harness);
    const invitations = new WorkspaceInvitationsRepository();
    accounts = new NewAccounts(harness.profiles, new ProjectInvitationsRepository(), invitations);
    mailed = new MailedWorkspaceInvitations(db, invitations, harness.profiles, new WorkspaceMembersRepository(), new WorkspaceRepository());
  });

  afterAll(() => harness.stop());

  it('shows the invitation to the right secret and changes nothing by looking (a mail scanner opening the link declines nothing)', async () => {
    const sent = await inviteStranger('Look only');
    const before = await invitationRow(sent.invitationId);
    expect(await mailed.look(pairOf(sent))).toEqual({ outcome: 'open', invitation: { inviterName: 'Ann <Admin>', inviterEmail: EMAIL[ANN], workspaceName: 'Look only' } });
    expect(await invitationRow(sent.invitationId)).toEqual(before);
    expect(await answersOf(sent.invitationId)).toEqual([]);
  });

  it("declines with the right secret: rejected, with biz_reject_invitation's answered event (the address as who declined), the inviter told to sync and the workspace re-read", async () => {
    const sent = await inviteStranger('Declined');
    const [annBefore, workspaceBefore, changedBefore] = [await highWater(ANN), await workspaceVersion(sent.workspaceId), (await events(CHANGED)).length];

    expect(await mailed.decline(pairOf(sent))).toEqual({ outcome: 'declined', invitation: { inviterName: 'Ann <Admin>', inviterEmail: EMAIL[ANN], workspaceName: 'Declined' } });

    const row = await invitationRow(sent.invitationId);
    expect(row).toMatchObject({ state: 'rejected', invitee_id: null });
    // The event biz_reject_invitation writes, field for field; the actor is the address (no account: id '0').
    expect(await answersOf(sent.invitationId)).toEqual([
      {
        invitationId: sent.invitationId,
        workspaceId: sent.workspaceId,
        workspaceName: 'Declined',
        inviterId: ANN,
        inviteeEmail: sent.email,
        actor: { id: '0', email: sent.email, full_name: sent.email, image_id: null },
        answer: 'rejected',
        adminIds: [ANN, BOB],
        planType: 'BUSINESS',
      },
    ]);
    // One change, stamped on the invitation and the workspace (its admins' pending_invitations), that both admins hear of.
    expect(await highWater(ANN)).toBe(BigInt(row.version));
    expect(BigInt(row.version)).toBeGreaterThan(annBefore);
    expect(await workspaceVersion(sent.workspaceId)).toBe(BigInt(row.version));
    expect(BigInt(row.version)).toBeGreaterThan(workspaceBefore);
    const changed = (await events<UsersChanged>(CHANGED)).slice(changedBefore);
    expect(changed).toEqual([expect.objectContaining({ version: row.version })]);
    expect([...changed[0].userIds].sort()).toEqual([ANN, BOB]);
  });

  it('declines once: a second press answers already_declined and changes nothing, and two presses at once decline once', async () => {
    const sent = await inviteStranger('Twice');
    expect(await mailed.decline(pairOf(sent))).toMatchObject({ outcome: 'declined' });
    const row = await invitationRow(sent.invitationId);
    expect(await mailed.decline(pairOf(sent))).toEqual({ outcome: 'already_declined', invitation: expect.objectContaining({ workspaceName: 'Twice' }) });
    expect(await invitationRow(sent.invitationId)).toEqual(row);
    expect(await answersOf(sent.invitationId)).toHaveLength(1);

    const racing = await inviteStranger('At once');
    const outcomes = (await Promise.all([mailed.decline(pairOf(racing)), mailed.decline(pairOf(racing)), mailed.decline(pairOf(racing))])).map((reply) => reply.outcome);
    expect(outcomes.sort()).toEqual(['already_declined', 'already_declined', 'declined']);
    expect(await answersOf(racing.invitationId)).toHaveLength(1);
  });

  it("answers a wrong secret, an unknown id and a project invitation's number alike (invalid) and changes nothing", async () => {
    const sent = await inviteStranger('Guessed');
    const before = await invitationRow(sent.invitationId);
    const wrong = [
      { invitationId: sent.invitationId, invitationSecret: `${sent.invitationSecret.slice(0, -1)}${sent.invitationSecret.endsWith('A') ? 'B' : 'A'}` },
      { invitationId: '999999999', invitationSecret: sent.invitationSecret },
    ];
    for (const request of wrong) {
      expect(await mailed.look(request)).toEqual({ outcome: 'invalid' });
      expect(await mailed.decline(request)).toEqual({ outcome: 'invalid' });
    }
    expect(await invitationRow(sent.invitationId)).toEqual(before);
    expect(await answersOf(sent.invitationId)).toEqual([]);
  });

  it('refuses a withdrawn invitation and one whose workspace was deleted (withdrawn), and one accepted by the account signed up from the mail (invalid)', async () => {
    const cancelled = await inviteStranger('Cancelled');
    expect((await statusOf(BOB, 'workspace_delete_invitation', { workspace_id: cancelled.workspaceId, email: cancelled.email })).status).toBe('ok');
    expect(await mailed.look(pairOf(cancelled))).toEqual({ outcome: 'withdrawn', invitation: expect.objectContaining({ workspaceName: 'Cancelled' }) });
    expect(await mailed.decline(pairOf(cancelled))).toMatchObject({ outcome: 'withdrawn' });
    expect(await invitationRow(cancelled.invitationId)).toMatchObject({ state: 'deleted' });
    expect((await answersOf(cancelled.invitationId)).map((event) => event.answer)).toEqual(['deleted']);

    const orphaned = await inviteStranger('Deleted workspace');
    expect((await statusOf(ANN, 'workspace_delete', { id: orphaned.workspaceId })).status).toBe('ok');
    expect(await mailed.look(pairOf(orphaned))).toEqual({ outcome: 'withdrawn' });
    expect(await mailed.decline(pairOf(orphaned))).toEqual({ outcome: 'withdrawn' });
    expect((await answersOf(orphaned.invitationId)).map((event) => event.answer)).toEqual(['deleted']);

    const accepted = await inviteStranger('Accepted');
    const from = await db.transaction((tx) =>
      accounts.welcome(tx, {
        userId: '7631',
        email: accepted.email,
        fullName: 'Newcomer',
        timezone: 'UTC',
        lang: 'en',
        joinedAt: new Date().toISOString(),
        hasPassword: true,
        invitation: { id: accepted.invitationId, secret: accepted.invitationSecret, kind: 'workspace' },
      }),
    );
    expect(from).toMatchObject({ kind: 'workspace', invitationId: accepted.invitationId });
    expect((await statusOf('7631', 'biz_accept_invitation', { invitation_id: from!.invitationId, invitation_secret: from!.invitationSecret })).status).toBe('ok');
    expect(await invitationRow(accepted.invitationId)).toMatchObject({ state: 'accepted', invitee_id: '7631' });
    expect(await mailed.look(pairOf(accepted))).toEqual({ outcome: 'invalid' });
    expect(await mailed.decline(pairOf(accepted))).toEqual({ outcome: 'invalid' });
    expect((await answersOf(accepted.invitationId)).map((event) => event.answer)).toEqual(['accepted']);
  });
});
