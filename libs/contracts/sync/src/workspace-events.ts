import { z } from 'zod';
import { inProject, inWorkspace, placeEvent, uid } from './event-fields';
import { invitationAnsweredEvent, invitationSentEvent } from './invitation-events';
import { notificationPerson } from './notification-person';
import { WORKSPACE_ROLES } from './workspace-roles';

/**
 * What happened in a workspace that other services act on (the notifications service makes the
 * live notifications of sync-interface §6 from them). Recorded in sync's outbox in the
 * transaction of the command that caused them; each carries the facts of the moment (names,
 * who was a member) rather than recipients, which are the consumer's decision.
 */

const planType = z.enum(['STARTER', 'BUSINESS']);

/**
 * An invitation to a workspace was made (workspace_invite) or sent again, or a waiting one was
 * offered to the account just created for its address. `inviteeId` null: no account has the
 * address yet. `invitationSecret` is the only copy in clear (sync keeps its hash): the
 * invitee's workspace_invitation_created notification carries it, and accepting needs it.
 */
export const workspaceInvitationSent = invitationSentEvent('sync.evt.workspace-invitation-sent.v1', { place: inWorkspace, role: z.enum(WORKSPACE_ROLES), more: {} });
export type WorkspaceInvitationSent = z.infer<typeof workspaceInvitationSent.payload>;

/**
 * A workspace invitation ended: accepted or rejected by its receiver, or deleted by someone
 * allowed to. `adminIds`: the workspace's admins after the answer (a paid workspace's admins
 * are told of an acceptance too, §6); `planType` the workspace's plan then.
 */
export const workspaceInvitationAnswered = invitationAnsweredEvent('sync.evt.workspace-invitation-answered.v1', { place: inWorkspace, invitee: {}, more: { adminIds: z.array(uid), planType } });
export type WorkspaceInvitationAnswered = z.infer<typeof workspaceInvitationAnswered.payload>;

/**
 * A user joined a workspace without an invitation: by its join link (`invite_code`) or by the
 * domain of their email address (`domain`: workspace_user_joined_by_domain to its admins).
 */
export const workspaceUserJoined = placeEvent('sync.evt.workspace-user-joined.v1', inWorkspace, {
  user: notificationPerson,
  role: z.enum(WORKSPACE_ROLES),
  via: z.enum(['invite_code', 'domain']),
  adminIds: z.array(uid),
});
export type WorkspaceUserJoined = z.infer<typeof workspaceUserJoined.payload>;

/**
 * A member stopped being one: left (workspace_leave, `removedBy` null) or was removed
 * (workspace_delete_user: the removed user gets removed_from_workspace).
 */
export const workspaceUserRemoved = placeEvent('sync.evt.workspace-user-removed.v1', inWorkspace, {
  userId: uid,
  removedBy: notificationPerson.nullable(),
});
export type WorkspaceUserRemoved = z.infer<typeof workspaceUserRemoved.payload>;

/** A workspace was deleted; `memberIds`: every admin, member and guest it had (workspace_deleted to each). */
export const workspaceDeleted = placeEvent('sync.evt.workspace-deleted.v1', inWorkspace, { actor: notificationPerson, memberIds: z.array(uid) });
export type WorkspaceDeleted = z.infer<typeof workspaceDeleted.payload>;

/** A workspace project was archived; `memberIds`: its collaborators then (project_archived to each). */
export const workspaceProjectArchived = placeEvent('sync.evt.workspace-project-archived.v1', inProject, { workspaceId: uid, actor: notificationPerson, memberIds: z.array(uid) });
export type WorkspaceProjectArchived = z.infer<typeof workspaceProjectArchived.payload>;

/**
 * A workspace moved to another plan type (the operator's set-workspace-plan): to BUSINESS is an
 * upgrade (teams_workspace_upgraded), back to STARTER a cancellation (teams_workspace_canceled).
 * `memberIds`: its admins and members (not guests, §6); `revision` the plans service's, which
 * with the workspace makes each change one notification.
 */
export const workspacePlanTypeChanged = placeEvent('sync.evt.workspace-plan-type-changed.v1', inWorkspace, {
  planType,
  previousPlanType: planType,
  revision: uid,
  memberIds: z.array(uid),
});
export type WorkspacePlanTypeChanged = z.infer<typeof workspacePlanTypeChanged.payload>;
