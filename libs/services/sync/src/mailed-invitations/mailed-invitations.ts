import { type MailedInvitationReply, type MailedInvitationRequest, personWithoutAccount } from '@doable/contracts-sync';
import { Database, type Tx } from '@doable/shared-runtime';
import { invitationSecretMatches, type ProjectInvitation, ProjectInvitationsRepository, UserProfileRepository } from '@doable/sync-domain';
import { lockUser, openChange, recordInvitationAnswer } from '@doable/sync-engine';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** PostgreSQL's deadlock and serialization failures: the transaction was rolled back whole. */
const RETRYABLE_CODES: ReadonlySet<string> = new Set(['40P01', '40001']);
const ATTEMPTS = 3;

const isRetryable = (err: unknown): boolean => typeof err === 'object' && err !== null && RETRYABLE_CODES.has(String((err as { code?: unknown }).code));

/**
 * A project invitation to an address without an account, answered from its mail: the decline
 * page (auth-oauth) shows it and, when its button is pressed, declines it. There is no user to
 * run reject_invitation as, so this is its path for the mail's holder: the same steps
 * (recordInvitationAnswer: the rejected state, the answered event the sender's
 * share_invitation_rejected notification is made from, the members' views), with the address as
 * the one who declined (personWithoutAccount).
 *
 * Only an invitation still waiting for an account (invitee_id null) answers to its mail: once
 * an account has the address, the invitation is offered to it under a new secret, and it
 * answers signed in. The secret is compared in constant time, and a wrong one gets the answer an
 * unknown id gets (`invalid`), so a guess learns nothing (the gateway counts the page's requests
 * per address too).
 */
@Injectable()
export class MailedInvitations {
  constructor(
    private readonly database: Database,
    private readonly invitations: ProjectInvitationsRepository,
    private readonly profiles: UserProfileRepository,
  ) {}

  /** Where the invitation stands, and who invited to what. Changes nothing (a mail scanner's GET lands here). */
  async look(request: MailedInvitationRequest): Promise<MailedInvitationReply> {
    const manager = this.database.dataSource.manager;
    const invitation = this.mailed(await this.invitations.find(manager, request.invitationId), request);
    if (!invitation) return { outcome: 'invalid' };
    return this.standing(manager, invitation);
  }

  /**
   * Declines it, all or nothing: an open invitation ends `rejected` with its event, in one
   * transaction. Declined already, it answers `already_declined` and changes nothing, so a
   * second press (or a resent request) does no second decline and tells the sender nothing more.
   */
  async decline(request: MailedInvitationRequest): Promise<MailedInvitationReply> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.database.transaction((tx) => this.declineIn(tx, request));
      } catch (err) {
        // Ran into another writer of the invitation or the inviter (a sign-up offering the
        // invitation to a new account takes them in the other order): nothing was kept; again.
        if (!isRetryable(err) || attempt >= ATTEMPTS) throw err;
      }
    }
  }

  private async declineIn(tx: Tx, request: MailedInvitationRequest): Promise<MailedInvitationReply> {
    const seen = this.mailed(await this.invitations.find(tx.manager, request.invitationId), request);
    if (!seen) return { outcome: 'invalid' };
    // The change is the inviter's view's: their row first, as every change takes its user's, so
    // their versions follow commit order; then the invitation, locked, and checked again (a
    // sign-up may have given it to an account, under a new secret, in between).
    const inviter = await lockUser(tx, this.profiles, seen.inviter_id);
    const invitation = this.mailed(await this.invitations.findForUpdate(tx.manager, request.invitationId), request);
    if (!invitation) return { outcome: 'invalid' };
    if (invitation.state !== 'invited') return this.standing(tx.manager, invitation);
    const projectName = await this.invitations.projectName(tx.manager, invitation.project_id);
    if (projectName === undefined) return { outcome: 'withdrawn' };
    const change = await openChange(tx, this.profiles, inviter);
    await recordInvitationAnswer({ tx, version: change.version, touch: change.touch }, this.invitations, invitation, projectName, 'rejected', personWithoutAccount(invitation.invitee_email));
    await change.close();
    return { outcome: 'declined', invitation: { inviterName: inviter.full_name, inviterEmail: inviter.email, projectName } };
  }

  /** The invitation, when the request's secret is its mailed one: still waiting for an account, secret matching. */
  private mailed(invitation: ProjectInvitation | undefined, request: MailedInvitationRequest): ProjectInvitation | undefined {
    if (!invitation || invitation.invitee_id !== null) return undefined;
    return invitationSecretMatches(request.invitationSecret, invitation.secret_hash) ? invitation : undefined;
  }

  /** What the holder of the right secret is told of an invitation: its state, and who invited to what while the project exists. */
  private async standing(manager: EntityManager, invitation: ProjectInvitation): Promise<MailedInvitationReply> {
    const outcome = OUTCOME_OF_STATE[invitation.state];
    const projectName = await this.invitations.projectName(manager, invitation.project_id);
    // A project deleted while the invitation was open: nothing is left to answer.
    if (projectName === undefined) return { outcome: outcome === 'open' ? 'withdrawn' : outcome };
    const inviter = await this.profiles.find(manager, invitation.inviter_id);
    // The foreign key keeps the inviter's profile.
    if (!inviter) throw new Error(`invitation ${invitation.id} has no inviter profile`);
    return { outcome, invitation: { inviterName: inviter.full_name, inviterEmail: inviter.email, projectName } };
  }
}

/** An invitation's state as the mail's holder reads it. */
const OUTCOME_OF_STATE: Readonly<Record<ProjectInvitation['state'], MailedInvitationReply['outcome']>> = {
  invited: 'open',
  rejected: 'already_declined',
  deleted: 'withdrawn',
  accepted: 'accepted',
};
