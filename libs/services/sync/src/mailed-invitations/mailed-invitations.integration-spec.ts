import { randomUUID } from 'node:crypto';
import type { ShareInvitationAnswered, ShareInvitationSent, UsersChanged } from '@doable/contracts-sync';
import type { Database } from '@doable/shared-runtime';
import type { DataSource } from 'typeorm';
import { NewAccounts, ProjectInvitationsRepository, WorkspaceInvitationsRepository } from '@doable/sync-domain';
import { failFirstCommit } from '@doable/sync-domain/testing';
import { type MailedInvitationsHarness, startMailedInvitationsHarness } from '../../testing/mailed-invitations.harness';
import { MailedInvitations } from './mailed-invitations';

const ANN = '7601';
const BOB = '7602';
const EMAIL: Record<string, string> = { [ANN]: 'ann@mailed.test', [BOB]: 'bob@mailed.test' };

const SENT = 'sync.evt.share-invitation-sent.v1';
const ANSWERED = 'sync.evt.share-invitation-answered.v1';
const CHANGED = 'sync.evt.users-changed.v1';

/**
 * The decline of a project invitation from its mail, by the invitation's id and secret, with no
 * account to act as (MailedInvitations, behind auth-oauth's decline page): real PostgreSQL, the
 * invitations made and answered by the real commands.
 */
describe('declining an invitation from its mail, without an account (real PostgreSQL)', () => {
  let harness: MailedInvitationsHarness;
  let dataSource: DataSource;
  let db: Database;
  let accounts: NewAccounts;
  let mailed: MailedInvitations;
  let counter = 0;

  const statusOf = (userId: string, type: string, args: Record<string, unknown>, tempId?: string) => harness.statusOf(userId, type, args, tempId);
  const addProject = async (name: string): Promise<string> => {
    const { status, mapping } = await statusOf(ANN, 'project_add', { name }, 'p');
    expect(status).toBe('ok');
    return mapping['p'];
  };
  const events = <P>(subject: string): Promise<P[]> => harness.events<P>(subject);
  const answersOf = async (invitationId: string) => (await events<ShareInvitationAnswered>(ANSWERED)).filter((event) => event.invitationId === invitationId);
  const invitationRow = async (id: string) =>
    (await dataSource.query<Array<{ state: string; invitee_id: string | null; version: string }>>(`SELECT state, invitee_id::text, version::text FROM sync.project_invitations WHERE id = $1`, [id]))[0];
  const highWater = (userId: string) => harness.highWater(userId);

  /** A new address without an account, invited by Ann to a new project: the event its mail is made from. */
  const inviteStranger = async (projectName = `Garden ${++counter}`): Promise<ShareInvitationSent & { readonly email: string }> => {
    const projectId = await addProject(projectName);
    const email = `stranger-${counter}-${randomUUID().slice(0, 8)}@mailed.test`;
    expect((await statusOf(ANN, 'share_project', { project_id: projectId, email })).status).toBe('ok');
    const sent = (await events<ShareInvitationSent>(SENT)).at(-1)!;
    expect(sent).toMatchObject({ projectId, inviteeEmail: email, inviteeId: null });
    return { ...sent, email };
  };
  const pairOf = (sent: ShareInvitationSent) => ({ invitationId: sent.invitationId, invitationSecret: sent.invitationSecret });

  beforeAll(async () => {
    harness = await startMailedInvitationsHarness('mailed_invitations', { [ANN]: { email: EMAIL[ANN], fullName: 'Ann <Gardener>' }, [BOB]: { email: EMAIL[BOB], fullName: 'Bob' } });
    ({ dataSource, db } = harness);
    const invitations = new ProjectInvitationsRepository();
    accounts = new NewAccounts(harness.profiles, invitations, new WorkspaceInvitationsRepository());
    mailed = new MailedInvitations(db, invitations, harness.profiles);
  });

  afterAll(() => harness.stop());

  it('shows the invitation to the right secret and changes nothing by looking (a mail scanner opening the link declines nothing)', async () => {
    const sent = await inviteStranger('Look only');
    const before = await invitationRow(sent.invitationId);
    expect(await mailed.look(pairOf(sent))).toEqual({ outcome: 'open', invitation: { inviterName: 'Ann <Gardener>', inviterEmail: EMAIL[ANN], projectName: 'Look only' } });
    expect(await mailed.look(pairOf(sent))).toMatchObject({ outcome: 'open' });
    expect(await invitationRow(sent.invitationId)).toEqual(before);
    expect(await answersOf(sent.invitationId)).toEqual([]);
  });

  it('declines with the right secret: the invitation ends rejected, with the answered event reject_invitation writes (the address as the one who declined), and the sharer is told to sync', async () => {
    const sent = await inviteStranger('Declined');
    const [annBefore, changedBefore] = [await highWater(ANN), (await events(CHANGED)).length];

    expect(await mailed.decline(pairOf(sent))).toEqual({ outcome: 'declined', invitation: { inviterName: 'Ann <Gardener>', inviterEmail: EMAIL[ANN], projectName: 'Declined' } });

    const row = await invitationRow(sent.invitationId);
    expect(row).toMatchObject({ state: 'rejected', invitee_id: null });
    // The same event as an account's reject_invitation, field for field; the actor is the address (no account: id '0').
    expect(await answersOf(sent.invitationId)).toEqual([
      {
        invitationId: sent.invitationId,
        projectId: sent.projectId,
        projectName: 'Declined',
        inviterId: ANN,
        inviteeEmail: sent.email,
        inviteeId: null,
        actor: { id: '0', email: sent.email, full_name: sent.email, image_id: null },
        answer: 'rejected',
      },
    ]);
    // One change, stamped on the invitation, that Ann's next sync and open sockets hear of.
    expect(await highWater(ANN)).toBe(BigInt(row.version));
    expect(BigInt(row.version)).toBeGreaterThan(annBefore);
    const changed = (await events<UsersChanged>(CHANGED)).slice(changedBefore);
    expect(changed).toEqual([expect.objectContaining({ userIds: [ANN], version: row.version })]);
  });

  it('declines once: a second press answers already_declined and changes nothing, and two presses at once decline once', async () => {
    const sent = await inviteStranger('Twice');
    expect(await mailed.decline(pairOf(sent))).toMatchObject({ outcome: 'declined' });
    const row = await invitationRow(sent.invitationId);
    const changedBefore = (await events(CHANGED)).length;

    expect(await mailed.decline(pairOf(sent))).toEqual({ outcome: 'already_declined', invitation: { inviterName: 'Ann <Gardener>', inviterEmail: EMAIL[ANN], projectName: 'Twice' } });
    expect(await mailed.look(pairOf(sent))).toMatchObject({ outcome: 'already_declined' });
    expect(await invitationRow(sent.invitationId)).toEqual(row);
    expect(await answersOf(sent.invitationId)).toHaveLength(1);
    expect(await events(CHANGED)).toHaveLength(changedBefore);

    const racing = await inviteStranger('At once');
    const outcomes = (await Promise.all([mailed.decline(pairOf(racing)), mailed.decline(pairOf(racing)), mailed.decline(pairOf(racing))])).map((reply) => reply.outcome);
    expect(outcomes.sort()).toEqual(['already_declined', 'already_declined', 'declined']);
    expect(await answersOf(racing.invitationId)).toHaveLength(1);
  });

  it('answers a wrong secret, an unknown id and another invitation\'s secret alike (invalid, nothing named) and changes nothing', async () => {
    const sent = await inviteStranger('Guessed');
    const other = await inviteStranger('Other');
    const before = await invitationRow(sent.invitationId);
    const wrong = [
      { invitationId: sent.invitationId, invitationSecret: 'not-the-secret-0123456789' },
      { invitationId: sent.invitationId, invitationSecret: other.invitationSecret },
      { invitationId: sent.invitationId, invitationSecret: `${sent.invitationSecret.slice(0, -1)}${sent.invitationSecret.endsWith('A') ? 'B' : 'A'}` },
      { invitationId: '999999999', invitationSecret: sent.invitationSecret },
    ];
    for (const request of wrong) {
      expect(await mailed.look(request)).toEqual({ outcome: 'invalid' });
      expect(await mailed.decline(request)).toEqual({ outcome: 'invalid' });
    }
    expect(await invitationRow(sent.invitationId)).toEqual(before);
    expect(await answersOf(sent.invitationId)).toEqual([]);
    expect(await mailed.look(pairOf(sent))).toMatchObject({ outcome: 'open' });
  });

  it('refuses a cancelled invitation (withdrawn) and one whose project was deleted, and changes neither', async () => {
    const cancelled = await inviteStranger('Cancelled');
    expect((await statusOf(ANN, 'delete_collaborator', { project_id: cancelled.projectId, email: cancelled.email })).status).toBe('ok');
    const answered = await answersOf(cancelled.invitationId);
    expect(answered).toEqual([expect.objectContaining({ answer: 'deleted' })]);
    expect(await mailed.look(pairOf(cancelled))).toEqual({ outcome: 'withdrawn', invitation: expect.objectContaining({ projectName: 'Cancelled' }) });
    expect(await mailed.decline(pairOf(cancelled))).toMatchObject({ outcome: 'withdrawn' });
    expect(await invitationRow(cancelled.invitationId)).toMatchObject({ state: 'deleted' });
    expect(await answersOf(cancelled.invitationId)).toEqual(answered);

    const orphaned = await inviteStranger('Deleted project');
    expect((await statusOf(ANN, 'project_delete', { id: orphaned.projectId })).status).toBe('ok');
    expect(await mailed.look(pairOf(orphaned))).toEqual({ outcome: 'withdrawn' });
    expect(await mailed.decline(pairOf(orphaned))).toEqual({ outcome: 'withdrawn' });
    expect(await answersOf(orphaned.invitationId)).toEqual([]);
  });

  it('refuses an invitation accepted by the account signed up from the mail: its mailed secret answers nothing any more', async () => {
    const sent = await inviteStranger('Accepted');
    const from = await db.transaction((tx) =>
      accounts.welcome(tx, { userId: '7611', email: sent.email, fullName: 'Newcomer', timezone: 'UTC', lang: 'en', joinedAt: new Date().toISOString(), hasPassword: true, invitation: { id: sent.invitationId, secret: sent.invitationSecret } }),
    );
    expect(from).toMatchObject({ invitationId: sent.invitationId });
    expect((await statusOf('7611', 'accept_invitation', { invitation_id: from!.invitationId, invitation_secret: from!.invitationSecret })).status).toBe('ok');
    const row = await invitationRow(sent.invitationId);
    expect(row).toMatchObject({ state: 'accepted', invitee_id: '7611' });

    expect(await mailed.look(pairOf(sent))).toEqual({ outcome: 'invalid' });
    expect(await mailed.decline(pairOf(sent))).toEqual({ outcome: 'invalid' });
    // Nor does the account's own (new) secret: an invitation addressed to an account is answered signed in.
    expect(await mailed.decline({ invitationId: sent.invitationId, invitationSecret: from!.invitationSecret })).toEqual({ outcome: 'invalid' });
    expect(await invitationRow(sent.invitationId)).toEqual(row);
    expect((await answersOf(sent.invitationId)).map((event) => event.answer)).toEqual(['accepted']);
  });

  it('refuses an open invitation addressed to an account, even with its secret (it is answered signed in, with reject_invitation)', async () => {
    const projectId = await addProject('To an account');
    expect((await statusOf(ANN, 'share_project', { project_id: projectId, email: EMAIL[BOB] })).status).toBe('ok');
    const sent = (await events<ShareInvitationSent>(SENT)).at(-1)!;
    expect(sent.inviteeId).toBe(BOB);
    expect(await mailed.look(pairOf(sent))).toEqual({ outcome: 'invalid' });
    expect(await mailed.decline(pairOf(sent))).toEqual({ outcome: 'invalid' });
    expect(await invitationRow(sent.invitationId)).toMatchObject({ state: 'invited' });
  });

  it('is all or nothing: a commit that fails keeps nothing (no state, no event), and a deadlock victim runs again and declines once', async () => {
    const failing = await inviteStranger('Failing commit');
    const broken = await failFirstCommit(dataSource, {
      name: 'mailed_decline_fails',
      table: 'sync.outbox',
      sqlstate: '23514',
      condition: `NEW.subject = '${ANSWERED}' AND NEW.payload->>'invitationId' = '${failing.invitationId}'`,
    });
    await expect(mailed.decline(pairOf(failing))).rejects.toMatchObject({ code: '23514' });
    expect(await broken.attempts()).toBe(1);
    expect(await invitationRow(failing.invitationId)).toMatchObject({ state: 'invited' });
    expect(await answersOf(failing.invitationId)).toEqual([]);
    // Pressed again, it declines (the trigger fails only the first commit).
    expect(await mailed.decline(pairOf(failing))).toMatchObject({ outcome: 'declined' });

    const deadlocked = await inviteStranger('Deadlocked commit');
    const victim = await failFirstCommit(dataSource, {
      name: 'mailed_decline_deadlock',
      table: 'sync.outbox',
      sqlstate: '40P01',
      condition: `NEW.subject = '${ANSWERED}' AND NEW.payload->>'invitationId' = '${deadlocked.invitationId}'`,
    });
    expect(await mailed.decline(pairOf(deadlocked))).toMatchObject({ outcome: 'declined' });
    expect(await victim.attempts()).toBe(2);
    expect(await answersOf(deadlocked.invitationId)).toHaveLength(1);
    expect(await invitationRow(deadlocked.invitationId)).toMatchObject({ state: 'rejected' });
  });
});
