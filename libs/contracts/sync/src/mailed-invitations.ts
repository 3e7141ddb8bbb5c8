import { z } from 'zod';

/**
 * A project or workspace invitation as its mail names it: the invitation to an address without
 * an account carries its id and secret (the notifications service's links), and whoever holds
 * the mail may look at it and decline it on the decline page (auth-oauth's
 * `/auth/invitation/decline`, with `invitation_kind=workspace` for a workspace's: the two are
 * numbered apart). Sync holds the invitation, so sync answers; the secret is compared with the
 * stored hash in constant time and never kept or logged by either side.
 */
export const mailedInvitationRequest = z.object({
  invitationId: z.string().regex(/^[0-9]{1,19}$/),
  invitationSecret: z.string().min(16).max(200),
});
export type MailedInvitationRequest = z.infer<typeof mailedInvitationRequest>;

/**
 * Where the invitation stands for the mail's holder:
 * `open`: still to answer (only a look answers this); `declined`: declined now by this request;
 * `already_declined`: declined before (a second press, a resent request: nothing happens again);
 * `withdrawn`: its sender (or a project manager, or a workspace admin) cancelled it, or the
 * project or workspace was deleted;
 * `accepted`: it was accepted;
 * `invalid`: no invitation has this id and secret for an address without an account (unknown
 * id, wrong secret, a newer mail replaced it, or the address has an account now and answers
 * signed in). One answer for all of those, so a wrong secret learns nothing of the invitation.
 */
export const MAILED_INVITATION_OUTCOMES = ['open', 'declined', 'already_declined', 'withdrawn', 'accepted', 'invalid'] as const;
export type MailedInvitationOutcome = (typeof MAILED_INVITATION_OUTCOMES)[number];

export const mailedInvitationReply = z.object({
  outcome: z.enum(MAILED_INVITATION_OUTCOMES),
  /** Who invited, and to what: only to the holder of the right secret, and while the project exists. */
  invitation: z
    .object({
      inviterName: z.string(),
      inviterEmail: z.string(),
      projectName: z.string(),
    })
    .optional(),
});
export type MailedInvitationReply = z.infer<typeof mailedInvitationReply>;

/**
 * The same answer for a workspace invitation (SyncSubjects.mailedWorkspaceInvitation and
 * declineMailedWorkspaceInvitation, beside the project's): what it invites to is a workspace.
 */
export const mailedWorkspaceInvitationReply = z.object({
  outcome: z.enum(MAILED_INVITATION_OUTCOMES),
  /** Who invited, and to which workspace: only to the holder of the right secret, and while the workspace exists. */
  invitation: z
    .object({
      inviterName: z.string(),
      inviterEmail: z.string(),
      workspaceName: z.string(),
    })
    .optional(),
});
export type MailedWorkspaceInvitationReply = z.infer<typeof mailedWorkspaceInvitationReply>;
