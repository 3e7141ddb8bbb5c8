import { Injectable } from '@nestjs/common';
import type { CommandDependencies } from './engine/commands';
import { FilterRepository } from './filters/filter.repository';
import { ItemDates } from './items/item-dates';
import { ItemRepository } from './items/item.repository';
import { LabelRepository } from './labels/label.repository';
import { LocationRepository } from './locations/location.repository';
import { NoteRepository } from './notes/note.repository';
import { ProjectInvitationsRepository } from './projects/project-invitations.repository';
import { ProjectMembersRepository } from './projects/project-members.repository';
import { ProjectRepository } from './projects/project.repository';
import { ReminderRepository } from './reminders/reminder.repository';
import { SectionRepository } from './sections/section.repository';
import { UserProfileRepository } from './users/user-profile.repository';
import { ViewOptionsRepository } from './view-options/view-options.repository';
import { WorkspaceFilterRepository } from './workspaces/workspace-filter.repository';
import { WorkspaceMembersRepository } from './workspaces/workspace-members.repository';
import { WorkspaceRepository } from './workspaces/workspace.repository';

/**
 * The repositories the commands use, gathered by Nest's injector (each is the module's one
 * instance, resolved by its type): COMMAND_HANDLERS is built from this and the service client
 * (engine/commands publicCommands), so a new repository is a parameter here, in one place.
 */
@Injectable()
export class SyncRepositories implements Omit<CommandDependencies, 'services'> {
  constructor(
    readonly projects: ProjectRepository,
    readonly items: ItemRepository,
    readonly sections: SectionRepository,
    readonly dates: ItemDates,
    readonly labels: LabelRepository,
    readonly filters: FilterRepository,
    readonly notes: NoteRepository,
    readonly reminders: ReminderRepository,
    readonly locations: LocationRepository,
    readonly profiles: UserProfileRepository,
    readonly views: ViewOptionsRepository,
    readonly members: ProjectMembersRepository,
    readonly invitations: ProjectInvitationsRepository,
    readonly workspaces: WorkspaceRepository,
    readonly workspaceMembers: WorkspaceMembersRepository,
    readonly workspaceFilters: WorkspaceFilterRepository,
  ) {}
}
