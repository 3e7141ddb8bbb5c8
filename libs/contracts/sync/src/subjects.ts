import { domainEdgeRequestSchema, type EdgeReply, edgeReplySchema, type EdgeRequest, edgeRequestSchema, type RequestSubject, requestSubject } from '@doable/contracts-common';
import { z } from 'zod';
import type { ObjectsReply, ObjectsRequestFor } from './object-replies';
import { type ObjectResource, type ObjectsRequest, objectsRequestSchema } from './objects';
import {
  type MailedInvitationReply,
  mailedInvitationReply,
  type MailedInvitationRequest,
  mailedInvitationRequest,
  type MailedWorkspaceInvitationReply,
  mailedWorkspaceInvitationReply,
} from './mailed-invitations';

/** Every Sync API request (v9 and api/v1 dialects) forwarded by the gateway. */
export const edge = requestSubject<EdgeRequest, EdgeReply>('sync.edge.v1', edgeRequestSchema, edgeReplySchema);

/** Whether a user's profile exists yet (it is created from auth's user-created event). */
export const userStatus = requestSubject<{ userId: string }, { exists: boolean }>(
  'sync.user.status.v1',
  z.object({ userId: z.string().regex(/^[0-9]+$/) }),
  z.object({ exists: z.boolean() }),
);

/** Completed-task history (v9 `completed/get_all`, api/v1 `tasks/completed/*`) forwarded by the gateway. */
export const completed = requestSubject<EdgeRequest, EdgeReply>('sync.edge.completed.v1', domainEdgeRequestSchema, edgeReplySchema);

/** Quick add (v9 `quick/add`, api/v1 `tasks/quick`) forwarded by the gateway. */
export const quickAdd = requestSubject<EdgeRequest, EdgeReply>('sync.edge.quick-add.v1', domainEdgeRequestSchema, edgeReplySchema);

/**
 * Commands and object reads for the resource-style dialects (the rest service). A request's
 * commands run through the same executor as the Sync API's; the reply carries api/v1 objects.
 */
export const objects = requestSubject<ObjectsRequest, ObjectsReply>('sync.objects.v1', objectsRequestSchema);

/**
 * `objects` as a caller sends it `request`: the same subject on the wire, its reply typed by the
 * request's query (ObjectsReply<R>: the objects that resource reads; none without a query). A
 * subject's reply type is its contract's declaration, here one per resource; the request only
 * fixes R, so send the same request on the subject this answers:
 * `services.request(SyncSubjects.objectsFor(request), request)`.
 */
export function objectsFor<R extends ObjectResource = never>(_request: ObjectsRequestFor<R>): RequestSubject<ObjectsRequest, ObjectsReply<R>> {
  return requestSubject<ObjectsRequest, ObjectsReply<R>>(objects.name, objectsRequestSchema);
}

/** Archived projects and sections in the v9 dialect (`projects/get_archived`, `archive/sections`). */
export const archived = requestSubject<EdgeRequest, EdgeReply>('sync.edge.archived.v1', domainEdgeRequestSchema, edgeReplySchema);

/** The first-generation interface (`/API/*` and the `TodoistSync` get/sync calls) forwarded by the gateway. */
export const firstGeneration = requestSubject<EdgeRequest, EdgeReply>('sync.edge.first-generation.v1', domainEdgeRequestSchema, edgeReplySchema);

/** Backups (v8/v9 `backups/get`, api/v1 `backups` and `backups/download`) forwarded by the gateway. */
export const backups = requestSubject<EdgeRequest, EdgeReply>('sync.edge.backups.v1', domainEdgeRequestSchema, edgeReplySchema);

/**
 * Importing a Todoist account (Doable's own endpoint, `POST /api/v1/import/todoist`): the file
 * arrives staged in the blob store (EdgeRequest.upload), never in the message.
 */
export const accountImport = requestSubject<EdgeRequest, EdgeReply>('sync.edge.account-import.v1', domainEdgeRequestSchema, edgeReplySchema);

/**
 * Project templates (v8/v9 `templates/*`, api/v1 `templates/*`: Todoist CSV export and import)
 * forwarded by the gateway; imports come as inline multipart (the file's text in `body.file`).
 */
export const templates = requestSubject<EdgeRequest, EdgeReply>('sync.edge.templates.v1', domainEdgeRequestSchema, edgeReplySchema);

/** The activity log (v9/v8/v7 `activity/get`, api/v1 `activities`) forwarded by the gateway. */
export const activity = requestSubject<EdgeRequest, EdgeReply>('sync.edge.activity.v1', domainEdgeRequestSchema, edgeReplySchema);

/**
 * The gateway's push channel checks the token of a `websocket_url` (made and signed by sync, so
 * no key is shared): the user it was made for, or AUTH_REQUIRED when it is forged or expired.
 */
export const verifyPushToken = requestSubject<{ token: string }, { userId: string }>(
  'sync.push.verify-token.v1',
  z.object({ token: z.string().min(1).max(256) }),
  z.object({ userId: z.string() }),
);

/**
 * The uploads service made a user's new avatar (or the user removed theirs: `imageId` null):
 * sync stores the id on the user's row as one change (the user and everyone sharing a project
 * with them see it in their next sync). Answers the id it replaced, whose bytes uploads then
 * removes; the caller was authenticated at the edge and is the user named.
 */
export const setAvatar = requestSubject<{ userId: string; imageId: string | null }, { previousImageId: string | null }>(
  'sync.user.set-avatar.v1',
  z.object({ userId: z.string().regex(/^[0-9]+$/), imageId: z.string().regex(/^[0-9a-f]{32}$/).nullable() }),
  z.object({ previousImageId: z.string().nullable() }),
);

/**
 * update_notification_setting (v7–v9 `notification_settings/update`, api/v1 `PUT
 * notification_setting`) forwarded by the gateway: the caller's own collaboration notification
 * settings, answered whole.
 */
export const notificationSettings = requestSubject<EdgeRequest, EdgeReply>('sync.edge.notification-settings.v1', domainEdgeRequestSchema, edgeReplySchema);

/**
 * The invitation a mail to an address without an account names (auth-oauth's decline page, on
 * a GET): where it stands, and who invited to what while it can be answered. Reads only: opening
 * the mail's link (a mail scanner does) answers nothing.
 */
export const mailedInvitation = requestSubject<MailedInvitationRequest, MailedInvitationReply>('sync.invitation.mailed.v1', mailedInvitationRequest, mailedInvitationReply);

/**
 * Declines that invitation (the decline page's button): what reject_invitation does, in one
 * transaction, with the address as the one who declined (the invitee has no account to act as).
 * A second request answers `already_declined` and changes nothing.
 */
export const declineMailedInvitation = requestSubject<MailedInvitationRequest, MailedInvitationReply>('sync.invitation.mailed-decline.v1', mailedInvitationRequest, mailedInvitationReply);

/**
 * The same two for a workspace invitation mailed to an address without an account: its own
 * subjects (its id is a workspace invitation's, and its answer names a workspace), beside the
 * project's. Declining is what biz_reject_invitation does: the inviter is told
 * (workspace_invitation_rejected) and the admins' pending_invitations lose the address.
 */
export const mailedWorkspaceInvitation = requestSubject<MailedInvitationRequest, MailedWorkspaceInvitationReply>(
  'sync.workspace-invitation.mailed.v1',
  mailedInvitationRequest,
  mailedWorkspaceInvitationReply,
);

export const declineMailedWorkspaceInvitation = requestSubject<MailedInvitationRequest, MailedWorkspaceInvitationReply>(
  'sync.workspace-invitation.mailed-decline.v1',
  mailedInvitationRequest,
  mailedWorkspaceInvitationReply,
);
