import { Injectable } from '@nestjs/common';
import type { CommandDependencies } from '@doable/sync-engine';
import { FilterRepository, ItemDates, ItemRepository, LabelRepository, LocationRepository, NoteRepository, ProjectInvitationsRepository, ProjectMembersRepository, ProjectRepository, ReminderRepository, SectionRepository, UserProfileRepository, ViewOptionsRepository, WorkspaceFilterRepository, WorkspaceMembersRepository, WorkspaceRepository } from '@doable/sync-domain';

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
