// The sync engine: the commands (each with its CommandPolicy), the executor that runs a request's
// commands in one transaction, the access, scope and plan checks, and the sync request (tag sync:engine).
export * from './command-args';
export * from './command-executor';
export * from './command-handler';
export * from './command-policies';
export * from './command-status';
export * from './commands/filters/filter-commands';
export * from './commands';
export { DEFAULT_INVITATION_BUDGET, INVITATION_BUDGET, type InvitationBudget } from './commands/sharing/invitation-budget';
export { type InvitationChange, invitedProjectName, recordInvitationAnswer } from './commands/sharing/sharing-args';
export * from './commands/items';
export * from './commands/items/item-quick-add.command';
export * from './commands/labels/label-commands';
export * from './commands/notes/note-commands';
export * from './commands/notifications/live-notification-commands';
export * from './commands/projects';
export * from './commands/reminders/reminder-commands';
export * from './commands/sections/section-commands';
export * from './commands/user/user-commands';
export * from './commands/user/notification-setting.command';
export * from './commands/view-options/view-options-commands';
export * from './project-access';
export * from './scopes';
export * from './sync-engine';
export * from './sync-request';
export * from './sync-result';
export * from './workspace-access';
export { lockUser, openChange, type UserChange } from './user-change';
