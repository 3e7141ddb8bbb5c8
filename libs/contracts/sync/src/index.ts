export * as SyncSubjects from './subjects';
export * from './notification-settings';
export * from './objects';
export * from './object-replies';
export * from './api-objects';
export * from './api-project-views';
export * from './api-user-objects';
export * from './api-workspace-objects';
export * from './fields/colors';
export * from './first-generation';
export * as SyncEvents from './events';
export * as GatewayPolls from './gateway-polls';
export type { UsersChanged } from './push-events';
export type { NotificationSettingsChanged } from './notification-settings-events';
export type { DailyDigestDue } from './digest-events';
export { DIGEST_MAX_TASKS } from './digest-events';
export type { CollaboratorLeft, GoalReached, ItemAssigned, ItemCompletionChanged, KarmaLevelReached, NoteAdded, NotificationPerson, ShareInvitationAnswered, ShareInvitationBlocked, ShareInvitationSent } from './events';
export type {
  WorkspaceDeleted,
  WorkspaceInvitationAnswered,
  WorkspaceInvitationSent,
  WorkspacePlanTypeChanged,
  WorkspaceProjectArchived,
  WorkspaceUserJoined,
  WorkspaceUserRemoved,
} from './workspace-events';
export * from './project-roles';
export * from './workspace-roles';
export * from './role-tables';
export {
  EVENT_OBJECT_TYPES,
  OBJECT_EVENT_TYPES,
  OBJECT_EVENTS_PER_MESSAGE,
  objectEventEntryId,
  objectEventHeads,
  readObjectEvent,
  readObjectEventFacts,
  type EventObjectType,
  type ObjectEvent,
  type ObjectEventFacts,
  type ObjectEventHead,
  type ObjectEventHeads,
  type ObjectEvents,
  type ObjectEventType,
} from './object-events';
export * from './command-policy';
export * from './avatars';
export * from './mailed-invitations';
export { NO_ACCOUNT_ID, personWithoutAccount } from './notification-person';
export * from './fields/field-line';
export * from './fields/task-fields';
export * from './fields/project-fields';
export * from './fields/section-fields';
export * from './fields/label-fields';
export * from './fields/comment-fields';
export * from './fields/filter-fields';
export * from './fields/reminder-fields';
export * from './fields/shared-args';
export * as WireSchemas from './fields/wire-schemas';
export * from './read-policy';
export type * from './command-args';
