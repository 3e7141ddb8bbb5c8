import type { AuthEvents, SignupInvitationKind } from '@doable/contracts-auth';
import type { PayloadOf } from '@doable/contracts-common';
import { SyncEvents } from '@doable/contracts-sync';
import type { Tx } from '@doable/shared-runtime';
import { Injectable } from '@nestjs/common';
import type { Person } from '../membership/invitation-events';
import type { Invitation } from '../membership/invitation.model';
import type { InvitationsTable } from '../membership/invitations.table';
import { invitationSentPayload } from '../projects/project-invitations.events';
import { ProjectInvitationsRepository } from '../projects/project-invitations.repository';
import { invitationSecretMatches, newInvitationSecret } from '../projects/project-invitations.secret';
import type { UserProfile } from '../users/user-profile.model';
import { UserProfileRepository } from '../users/user-profile.repository';
import { tellUsersChanged } from '../users/users-changed';
import { workspaceInvitationSentPayload } from '../workspaces/workspace-invitations.events';
import { WorkspaceInvitationsRepository } from '../workspaces/workspace-invitations.repository';

/** The invitation an account was signed up from, as its new secret makes it answerable. */
export interface SignedUpFrom {
  /** A project's (accept_invitation) or a workspace's (biz_accept_invitation). */
  readonly kind: SignupInvitationKind;
  readonly invitationId: string;
  readonly invitationSecret: string;
}

/**
 * A new account (auth's userCreated event, consumers/user-created.consumer.ts): its sync profile
 * and Inbox project, and the invitations that waited for its address, offered to it.
 */
@Injectable()
export class NewAccounts {
  constructor(
    private readonly profiles: UserProfileRepository,
    private readonly invitations: ProjectInvitationsRepository,
    private readonly workspaceInvitations: WorkspaceInvitationsRepository,
  ) {}

  /**
   * Answers the invitation the account was signed up from (userCreated's `invitation`: a
   * project's, or a workspace's when its `kind` says so), under its new secret, when that
   * secret was the waiting invitation's: the caller accepts it for the account once this
   * transaction has committed (accept_invitation or biz_accept_invitation, with every rule of a
   * client's). A wrong secret, another address's invitation or the other kind's id answers
   * nothing: the invitation waits, offered to the account like any other.
   */
  async welcome(tx: Tx, user: PayloadOf<typeof AuthEvents.userCreated>): Promise<SignedUpFrom | undefined> {
    const { userId: id, email, fullName, timezone, lang, joinedAt, hasPassword, emailVerified } = user;
    const created = await this.profiles.createWithInbox(tx.manager, { id, email, fullName, timezone, lang, joinedAt, hasPassword, emailVerified });
    // A redelivered event finds the profile made: its invitations were offered the first time.
    if (!created) return undefined;
    const profile = await this.profiles.find(tx.manager, user.userId);
    if (!profile) return undefined;
    let signedUpFrom: SignedUpFrom | undefined;
    // Checked against the hash the mail's secret was made with (`waiting`, before the rotation);
    // ids are compared within the kind's own table only (the two are numbered apart).
    const mailed = user.invitation;
    const fromMail = (kind: SignupInvitationKind, waiting: Invitation): boolean =>
      mailed !== undefined && (mailed.kind ?? 'project') === kind && mailed.id === waiting.id && invitationSecretMatches(mailed.secret, waiting.secret_hash);
    const signedUpWith = (kind: SignupInvitationKind, waiting: Invitation, offeredId: string, secret: string): void => {
      if (fromMail(kind, waiting)) signedUpFrom = { kind, invitationId: offeredId, invitationSecret: secret };
    };
    // An unproven address (issue #44) is offered only the invitation whose mailed secret it holds
    // (holding it shows the mailbox is the account's); the others wait until the address is proven.
    const offered = (kind: SignupInvitationKind) => (waiting: Invitation) => emailVerified === true || fromMail(kind, waiting);
    await this.offerProjectInvitations(tx, profile, offered('project'), (waiting, offeredId, secret) => signedUpWith('project', waiting, offeredId, secret));
    await this.offerWorkspaceInvitations(tx, profile, offered('workspace'), (waiting, offeredId, secret) => signedUpWith('workspace', waiting, offeredId, secret));
    return signedUpFrom;
  }

  /**
   * The user's address was proven after the profile was made (auth's email-verified or
   * email-changed events): the invitations that waited for the address are offered now, as to a
   * new account.
   */
  async addressProven(tx: Tx, userId: string): Promise<void> {
    // Locked first, as every write to the user; the offers get a version of their own so the
    // user's next incremental sync carries them.
    const locked = await this.profiles.lock(tx.manager, userId);
    if (!locked) return;
    const [{ version }] = await tx.manager.query<Array<{ version: string }>>(`SELECT nextval('sync.change_version')::text AS version`);
    const profile = { ...locked, version };
    await this.offerProjectInvitations(tx, profile, () => true, () => undefined);
    await this.offerWorkspaceInvitations(tx, profile, () => true, () => undefined);
    await tellUsersChanged(tx, await this.profiles.raiseHighWater(tx.manager, userId, [], version), version);
  }

  private async offerProjectInvitations(tx: Tx, profile: UserProfile, include: (waiting: Invitation) => boolean, sent: (waiting: Invitation, offeredId: string, secret: string) => void): Promise<void> {
    const projectIds = new Set<string>();
    await this.offer(tx, profile, this.invitations, include, async (offered, waiting, inviter, secret) => {
      await tx.emit(SyncEvents.shareInvitationSent, invitationSentPayload(offered, waiting.project_name, inviter, secret));
      projectIds.add(waiting.project_id);
      sent(waiting, offered.id, secret);
    });
    // The members of each project the account was invited to see its collaborator record (their
    // open sockets are told, usersChanged, in the same transaction as any other change).
    if (projectIds.size > 0) {
      const told = await this.profiles.raiseHighWater(tx.manager, profile.id, [...projectIds], profile.version);
      await tellUsersChanged(tx, told, profile.version);
    }
  }

  private async offerWorkspaceInvitations(tx: Tx, profile: UserProfile, include: (waiting: Invitation) => boolean, sent: (waiting: Invitation, offeredId: string, secret: string) => void): Promise<void> {
    // No member's view changes for a workspace invitation: the invitee is no member until they accept.
    await this.offer(tx, profile, this.workspaceInvitations, include, async (offered, waiting, inviter, secret) => {
      await tx.emit(SyncEvents.workspaceInvitationSent, workspaceInvitationSentPayload(offered, waiting.workspace_name, inviter, secret));
      sent(waiting, offered.id, secret);
    });
  }

  /**
   * An invitation to an address without an account waited (invitee_id null); it is now
   * addressed to this account and sent again (`send`: its kind's event, with the new inviteeId),
   * which the notifications service turns into the account's live notification. The secret is
   * made anew: the old one went only into the invitation's mail (the notifications service's,
   * from the event with inviteeId null), which welcome() checks before the rotation, so
   * rotating it loses nothing. Stamped with the profile's creation version: the account's first
   * sync is a full one.
   */
  private async offer<I extends Invitation, W extends I>(
    tx: Tx,
    profile: UserProfile,
    invitations: InvitationsTable<I, W>,
    include: (waiting: W) => boolean,
    send: (offered: I, waiting: W, inviter: Person, secret: string) => Promise<void>,
  ): Promise<void> {
    for (const waiting of await invitations.waitingFor(tx.manager, profile.email)) {
      if (!include(waiting)) continue;
      const inviter = await this.profiles.find(tx.manager, waiting.inviter_id);
      // The foreign key keeps the inviter's profile.
      if (!inviter) throw new Error(`invitation ${waiting.id} has no inviter profile`);
      const { secret, hash } = newInvitationSecret();
      await send(await invitations.attachInvitee(tx.manager, waiting.id, profile.id, hash, profile.version), waiting, inviter, secret);
    }
  }
}
