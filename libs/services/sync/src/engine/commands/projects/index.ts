import type { ItemRepository } from '../../../items/item.repository';
import type { ProjectRepository } from '../../../projects/project.repository';
import type { SectionRepository } from '../../../sections/section.repository';
import type { CommandHandler } from '../command-handler';
import { ProjectAddCommand } from './project-add.command';
import { ProjectArchiveCommand, ProjectDeleteCommand, ProjectUnarchiveCommand } from './project-lifecycle.command';
import { ProjectMoveCommand } from './project-move.command';
import { ProjectReorderCommand } from './project-reorder.command';
import { ProjectUpdateCommand } from './project-update.command';

/** Every project command. */
export function projectCommands(projects: ProjectRepository, sections: SectionRepository, items: ItemRepository): CommandHandler[] {
  return [
    new ProjectAddCommand(projects),
    new ProjectUpdateCommand(projects),
    new ProjectMoveCommand(projects),
    new ProjectReorderCommand(projects),
    new ProjectArchiveCommand(projects),
    new ProjectUnarchiveCommand(projects),
    new ProjectDeleteCommand(projects, sections, items),
  ];
}
