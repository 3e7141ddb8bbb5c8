import type { ServiceClient } from '@doable/shared-transport';
import type { FilterRepository, ItemDates, ItemRepository, LabelRepository, LocationRepository, NoteRepository, ProjectInvitationsRepository, ProjectMembersRepository, ProjectRepository, ReminderRepository, SectionRepository, UserProfileRepository, ViewOptionsRepository, WorkspaceFilterRepository, WorkspaceMembersRepository, WorkspaceRepository } from '@doable/sync-domain';
import type { CommandHandler } from '../command-handler';
import { filterCommands } from './filters/filter-commands';
import { itemCommands } from './items';
import { labelCommands } from './labels/label-commands';
import { noteCommands } from './notes/note-commands';
import { liveNotificationCommands } from './notifications/live-notification-commands';
import { projectCommands } from './projects';
import { reminderCommands } from './reminders/reminder-commands';
import { sectionCommands } from './sections/section-commands';
import { sharingCommands } from './sharing';
import type { InvitationBudget } from './sharing/invitation-budget';
import { userCommands } from './user/user-commands';
import { viewOptionsCommands } from './view-options/view-options-commands';
import { workspaceCommands, workspaceFilterCommands } from './workspaces';

/**
 * What the commands work with: the sync schema's repositories (they hold no state; each method
 * runs on the caller's transaction) and the client of the other services (the credential and
 * notification commands prepare with it).
 */
export interface CommandDependencies {
  readonly projects: ProjectRepository;
  readonly items: ItemRepository;
  readonly sections: SectionRepository;
  readonly dates: ItemDates;
  readonly labels: LabelRepository;
  readonly filters: FilterRepository;
  readonly notes: NoteRepository;
  readonly reminders: ReminderRepository;
  readonly locations: LocationRepository;
  readonly profiles: UserProfileRepository;
  readonly views: ViewOptionsRepository;
  readonly members: ProjectMembersRepository;
  readonly invitations: ProjectInvitationsRepository;
  readonly workspaces: WorkspaceRepository;
  readonly workspaceMembers: WorkspaceMembersRepository;
  readonly workspaceFilters: WorkspaceFilterRepository;
  readonly services: ServiceClient;
  /** Invitations per sender per window (the sync service's INVITATIONS_PER_SENDER); the default when not given. */
  readonly invitationBudget?: InvitationBudget;
}

/**
 * Every command a client may send, from each folder's list: the one registry the service's
 * COMMAND_HANDLERS is, and what CommandPolicies reads every declaration from. A new command is
 * its file (the handler and its CommandPolicy) and its line in its folder's list.
 */
export function publicCommands(d: CommandDependencies): CommandHandler[] {
  return [
    ...projectCommands(d.projects, d.sections, d.items),
    ...itemCommands(d.items, d.projects, d.sections, d.dates, d.labels),
    ...sectionCommands(d.sections, d.projects, d.items),
    ...labelCommands(d.labels),
    ...filterCommands(d.filters),
    ...noteCommands(d.notes, d.items, d.projects),
    ...reminderCommands(d.reminders, d.items, d.dates, d.locations),
    ...userCommands(d.profiles, d.services),
    ...liveNotificationCommands(d.services),
    ...viewOptionsCommands(d.views, d.projects, d.labels, d.filters),
    ...sharingCommands({ projects: d.projects, members: d.members, invitations: d.invitations, items: d.items, profiles: d.profiles, invitationBudget: d.invitationBudget }),
    ...workspaceCommands({ workspaces: d.workspaces, members: d.workspaceMembers, projects: d.projects, sections: d.sections, items: d.items, profiles: d.profiles, invitationBudget: d.invitationBudget }),
    ...workspaceFilterCommands(d.workspaceFilters),
  ];
}
