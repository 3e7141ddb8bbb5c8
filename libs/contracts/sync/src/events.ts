import { eventSubject } from '@doable/contracts-common';
import { z } from 'zod';
import { aboutItem, inProject, placeEvent, uid } from './event-fields';
import { invitationAnsweredEvent, invitationSentEvent } from './invitation-events';
import { COLLABORATOR_ROLES } from './project-roles';
import { notificationPerson } from './notification-person';

/**
 * What happened in the task domain that other services act on. Sync records these in its
 * outbox in the transaction of the command that caused them; the notifications service turns
 * them into live notifications (who receives what is its decision, sync-interface §6), so
 * each event carries the facts of the moment (names, members) rather than recipients.
 */

export { notificationPerson, type NotificationPerson } from './notification-person';

/**
 * An invitation to a project was made (share_project), or a pending one was offered to the
 * account just created for its address. `inviteeId` null: no account has the address yet; the
 * invitation waits and this event is sent again, with a new secret, when one is created.
 * `invitationSecret` is the only copy in clear: sync keeps its hash, and the receiver's
 * share_invitation_sent notification (or an email, see the notifications service's
 * InvitationMailer) is how it reaches the receiver.
 */
export const shareInvitationSent = invitationSentEvent('sync.evt.share-invitation-sent.v1', { place: inProject, role: z.enum(COLLABORATOR_ROLES), more: { message: z.string() } });
export type ShareInvitationSent = z.infer<typeof shareInvitationSent.payload>;

/**
 * An invitation ended: accepted or rejected by its receiver, or deleted (withdrawn) by someone
 * allowed to. `actor` is who did it.
 */
export const shareInvitationAnswered = invitationAnsweredEvent('sync.evt.share-invitation-answered.v1', { place: inProject, invitee: { inviteeId: uid.nullable() }, more: {} });
export type ShareInvitationAnswered = z.infer<typeof shareInvitationAnswered.payload>;

/**
 * share_project was refused because the project already holds as many collaborators (members
 * besides its owner, and open invitations) as its owner's plan allows (max_collaborators).
 * Recorded by the refused command, which writes nothing else: the inviter, and the owner when
 * someone else invited, get a share_invitation_blocked_by_project_limit live notification.
 */
export const shareInvitationBlocked = placeEvent('sync.evt.share-invitation-blocked.v1', inProject, {
  inviter: notificationPerson,
  inviteeEmail: z.string(),
  ownerId: uid,
  maxCount: z.number().int().min(0),
});
export type ShareInvitationBlocked = z.infer<typeof shareInvitationBlocked.payload>;

/**
 * A collaborator stopped being one: left (project_leave, `removedBy` null) or was removed
 * (delete_collaborator). `memberIds` are the members after the change.
 */
export const collaboratorLeft = placeEvent('sync.evt.collaborator-left.v1', inProject, {
  userId: uid,
  userName: z.string(),
  removedBy: uid.nullable(),
  memberIds: z.array(uid),
});
export type CollaboratorLeft = z.infer<typeof collaboratorLeft.payload>;

/** A task of a shared project got a (new) responsible user. */
export const itemAssigned = eventSubject(
  'sync.evt.item-assigned.v1',
  z.object({ ...aboutItem, assignedBy: uid, responsibleUid: uid, creatorId: uid.nullable() }),
);
export type ItemAssigned = z.infer<typeof itemAssigned.payload>;

/** An assigned task was completed or reopened (item_completed, item_uncompleted). */
export const itemCompletionChanged = eventSubject(
  'sync.evt.item-completion-changed.v1',
  z.object({
    ...aboutItem,
    completed: z.boolean(),
    actorId: uid,
    assignedBy: uid.nullable(),
    responsibleUid: uid,
  }),
);
export type ItemCompletionChanged = z.infer<typeof itemCompletionChanged.payload>;

/**
 * A comment was added in a shared project. `uidsToNotify` is the note_add argument when the
 * client sent one (then only those members are told); `memberIds` are the project's members.
 */
export const noteAdded = eventSubject(
  'sync.evt.note-added.v1',
  z.object({
    noteId: uid,
    noteContent: z.string(),
    itemId: uid.nullable(),
    projectId: uid,
    actorId: uid,
    memberIds: z.array(uid),
    uidsToNotify: z.array(uid).nullable(),
  }),
);
export type NoteAdded = z.infer<typeof noteAdded.payload>;

/**
 * A user's completions reached their daily or weekly goal, once per period (`period` is the
 * day, or the week's first day, in the user's zone: with the type it makes the notification key).
 */
export const goalReached = eventSubject(
  'sync.evt.goal-reached.v1',
  z.object({ userId: uid, goal: z.enum(['daily', 'weekly']), count: z.number().int(), target: z.number().int(), period: z.string() }),
);
export type GoalReached = z.infer<typeof goalReached.payload>;

/** A user's karma crossed into a new level (once per level). */
export const karmaLevelReached = eventSubject(
  'sync.evt.karma-level-reached.v1',
  z.object({ userId: uid, level: z.number().int().min(1), karma: z.number().int() }),
);
export type KarmaLevelReached = z.infer<typeof karmaLevelReached.payload>;

export * from './workspace-events';
export * from './object-events';
export * from './push-events';
export * from './reminder-events';

export * from './notification-settings-events';
export { dailyDigestDue } from './digest-events';
