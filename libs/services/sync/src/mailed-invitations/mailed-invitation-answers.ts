import { type MailedInvitationOutcome, type MailedInvitationRequest, type NotificationPerson, personWithoutAccount } from '@doable/contracts-sync';
import type { Database, Tx } from '@doable/shared-runtime';
import { type Invitation, invitationSecretMatches, type UserProfileRepository } from '@doable/sync-domain';
import { lockUser, openChange, type UserChange } from '@doable/sync-engine';
import type { EntityManager } from 'typeorm';

/** PostgreSQL's deadlock and serialization failures: the transaction was rolled back whole. */
const RETRYABLE_CODES: ReadonlySet<string> = new Set(['40P01', '40001']);
const ATTEMPTS = 3;

const isRetryable = (err: unknown): boolean => typeof err === 'object' && err !== null && RETRYABLE_CODES.has(String((err as { code?: unknown }).code));

/** What the mail's holder is told, whatever the invitation is to: its standing, and who invited to what (`placeName`). */
export interface MailedAnswer {
  readonly outcome: MailedInvitationOutcome;
  readonly invitation?: { readonly inviterName: string; readonly inviterEmail: string; readonly placeName: string };
}

/**
 * What differs between a project invitation and a workspace invitation answered from its mail:
 * the table it is in, what it invites to, and what a decline writes beside the change.
 */
export interface MailedInvitationKind<I extends Invitation, Place extends { readonly name: string }> {
  readonly invitations: {
    find(manager: EntityManager, invitationId: string): Promise<I | undefined>;
    findForUpdate(manager: EntityManager, invitationId: string): Promise<I | undefined>;
  };
  /** What it invites to, while that exists (a deleted project or workspace: undefined); `forDecline`: in the decline's transaction. */
  place(manager: EntityManager, invitation: I, forDecline: boolean): Promise<Place | undefined>;
  /**
   * The decline, in the change's transaction (the inviter's change, `actor` the address): the
   * invitation's rejected state, the answered event the inviter's notification is made from, and
   * whose views re-read what.
   */
  decline(tx: Tx, change: UserChange, invitation: I, place: Place, actor: NotificationPerson): Promise<void>;
}

/**
 * An invitation to an address without an account, answered from its mail: the decline page
 * (auth-oauth) shows it and, when its button is pressed, declines it. There is no user to run
 * the invitee's reject command as, so this is its path for the mail's holder: the same steps,
 * with the address as the one who declined (personWithoutAccount).
 *
 * Only an invitation still waiting for an account (invitee_id null) answers to its mail: once
 * an account has the address, the invitation is offered to it under a new secret, and it
 * answers signed in. The secret is compared in constant time, and a wrong one gets the answer an
 * unknown id gets (`invalid`), so a guess learns nothing (the gateway counts the page's requests
 * per address too). Projects' and workspaces' are two kinds of this (MailedInvitationKind).
 */
export class MailedInvitationAnswers<I extends Invitation, Place extends { readonly name: string }> {
  constructor(
    private readonly database: Database,
    private readonly profiles: UserProfileRepository,
    private readonly kind: MailedInvitationKind<I, Place>,
  ) {}

  /** Where the invitation stands, and who invited to what. Changes nothing (a mail scanner's GET lands here). */
  async look(request: MailedInvitationRequest): Promise<MailedAnswer> {
    const manager = this.database.dataSource.manager;
    const invitation = this.mailed(await this.kind.invitations.find(manager, request.invitationId), request);
    if (!invitation) return { outcome: 'invalid' };
    return this.standing(manager, invitation);
  }

  /**
   * Declines it, all or nothing: an open invitation ends `rejected` with its event, in one
   * transaction. Declined already, it answers `already_declined` and changes nothing, so a
   * second press (or a resent request) does no second decline and tells the sender nothing more.
   */
  async decline(request: MailedInvitationRequest): Promise<MailedAnswer> {
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

  private async declineIn(tx: Tx, request: MailedInvitationRequest): Promise<MailedAnswer> {
    const seen = this.mailed(await this.kind.invitations.find(tx.manager, request.invitationId), request);
    if (!seen) return { outcome: 'invalid' };
    // The change is the inviter's view's: their row first, as every change takes its user's, so
    // their versions follow commit order; then the invitation, locked, and checked again (a
    // sign-up may have given it to an account, under a new secret, in between; sending it again,
    // which may change its inviter, changes its secret too).
    const inviter = await lockUser(tx, this.profiles, seen.inviter_id);
    const invitation = this.mailed(await this.kind.invitations.findForUpdate(tx.manager, request.invitationId), request);
    if (!invitation) return { outcome: 'invalid' };
    if (invitation.state !== 'invited') return this.standing(tx.manager, invitation);
    const place = await this.kind.place(tx.manager, invitation, true);
    if (place === undefined) return { outcome: 'withdrawn' };
    const change = await openChange(tx, this.profiles, inviter);
    await this.kind.decline(tx, change, invitation, place, personWithoutAccount(invitation.invitee_email));
    await change.close();
    return { outcome: 'declined', invitation: { inviterName: inviter.full_name, inviterEmail: inviter.email, placeName: place.name } };
  }

  /** The invitation, when the request's secret is its mailed one: still waiting for an account, secret matching. */
  private mailed(invitation: I | undefined, request: MailedInvitationRequest): I | undefined {
    if (!invitation || invitation.invitee_id !== null) return undefined;
    return invitationSecretMatches(request.invitationSecret, invitation.secret_hash) ? invitation : undefined;
  }

  /** What the holder of the right secret is told of an invitation: its state, and who invited to what while that exists. */
  private async standing(manager: EntityManager, invitation: I): Promise<MailedAnswer> {
    const outcome = OUTCOME_OF_STATE[invitation.state];
    const place = await this.kind.place(manager, invitation, false);
    // Deleted while the invitation was open: nothing is left to answer.
    if (place === undefined) return { outcome: outcome === 'open' ? 'withdrawn' : outcome };
    const inviter = await this.profiles.find(manager, invitation.inviter_id);
    // The foreign key keeps the inviter's profile.
    if (!inviter) throw new Error(`invitation ${invitation.id} has no inviter profile`);
    return { outcome, invitation: { inviterName: inviter.full_name, inviterEmail: inviter.email, placeName: place.name } };
  }
}

/** An invitation's state as the mail's holder reads it. */
const OUTCOME_OF_STATE: Readonly<Record<Invitation['state'], MailedInvitationOutcome>> = {
  invited: 'open',
  rejected: 'already_declined',
  deleted: 'withdrawn',
  accepted: 'accepted',
};
