import type { Provider, Type } from '@nestjs/common';
import { COMMAND_HANDLERS, type CommandHandler } from '../command-handler';
import { FILTER_COMMANDS } from './filters/filter-commands';
import { CompletionRepositories, ReopeningRepositories } from './items/item-completion';
import { ITEM_COMMANDS } from './items';
import { LABEL_COMMANDS } from './labels/label-commands';
import { NOTE_COMMANDS } from './notes/note-commands';
import { LIVE_NOTIFICATION_HANDLERS } from './notifications/live-notification-commands';
import { PROJECT_COMMANDS } from './projects';
import { ProjectWorkspaceRepositories } from './projects/workspace-project';
import { REMINDER_COMMANDS } from './reminders/reminder-commands';
import { SECTION_COMMANDS } from './sections/section-commands';
import { SHARING_COMMANDS } from './sharing';
import { MembershipDeps } from './sharing/collaborator-removal.command';
import { GuestRepositories } from './sharing/workspace-guests';
import { USER_COMMANDS } from './user/user-commands';
import { VIEW_OPTIONS_COMMANDS, ViewKeys } from './view-options/view-options-commands';
import { WORKSPACE_COMMANDS, WORKSPACE_FILTER_COMMANDS } from './workspaces';
import { WorkspaceInvitationRepositories } from './workspaces/workspace-invite.command';

/**
 * Every command a client may send, as the classes Nest builds: the one registry COMMAND_HANDLERS
 * is, and what CommandPolicies reads every declaration from. A new command is its file (the
 * handler, its CommandPolicy, its constructor's dependencies) and its line in its folder's list;
 * what it needs is resolved by the injector from the module's providers, never listed again.
 */
export const PUBLIC_COMMANDS: readonly Type<CommandHandler>[] = [
  ...PROJECT_COMMANDS,
  ...ITEM_COMMANDS,
  ...SECTION_COMMANDS,
  ...LABEL_COMMANDS,
  ...FILTER_COMMANDS,
  ...NOTE_COMMANDS,
  ...REMINDER_COMMANDS,
  ...USER_COMMANDS,
  ...LIVE_NOTIFICATION_HANDLERS,
  ...VIEW_OPTIONS_COMMANDS,
  ...SHARING_COMMANDS,
  ...WORKSPACE_COMMANDS,
  ...WORKSPACE_FILTER_COMMANDS,
];

/** What several commands share (groups of repositories, view keys): providers too, built once. */
const COMMAND_SUPPORT: readonly Type[] = [ProjectWorkspaceRepositories, CompletionRepositories, ReopeningRepositories, MembershipDeps, GuestRepositories, WorkspaceInvitationRepositories, ViewKeys];

/**
 * The commands as providers, and COMMAND_HANDLERS as the list of them, for a module whose
 * providers hold the sync repositories, ServiceClient and INVITATION_BUDGET.
 *
 * Why a factory that injects every command class, and not DiscoveryService with a `@SyncCommand()`
 * decorator: discovery still needs each class among the module's providers (so the list exists
 * either way), gives the handlers in whatever order the container holds them (CommandPolicies and
 * the role tables derived from it want a stable order), and is found only after the module has
 * initialised, while CommandExecutor takes the handlers in its constructor. The factory is plain
 * Nest (no reflection of our own), checked at start-up: a command whose dependency no provider
 * gives fails the boot, naming the command.
 */
export const COMMAND_PROVIDERS: readonly Provider[] = [
  ...COMMAND_SUPPORT,
  ...PUBLIC_COMMANDS,
  { provide: COMMAND_HANDLERS, useFactory: (...handlers: CommandHandler[]): CommandHandler[] => handlers, inject: [...PUBLIC_COMMANDS] },
];
