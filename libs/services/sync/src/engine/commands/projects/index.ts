import type { ItemRepository } from '../../../items/item.repository';
import type { ProjectRepository } from '../../../projects/project.repository';
import type { SectionRepository } from '../../../sections/section.repository';
import type { CommandHandler } from '../command-handler';
import { ProjectAddCommand } from './project-add.command';
import { ProjectAddFlatCommand, ProjectUpdateOrdersIndentsCommand } from './project-flat-place.command';
import { ProjectArchiveCommand, ProjectDeleteCommand, ProjectUnarchiveCommand } from './project-lifecycle.command';
import { ProjectMoveCommand } from './project-move.command';
import { ProjectReorderCommand } from './project-reorder.command';
import { ProjectUpdateCommand } from './project-update.command';

/** Every project command. */
export function projectCommands(projects: ProjectRepository, sections: SectionRepository, items: ItemRepository): CommandHandler[] {
  const add = new ProjectAddCommand(projects);
  return [
    add,
    // Placing by Sync v7's flat positions: see project-flat-place.command.ts.
    new ProjectAddFlatCommand(projects, add),
    new ProjectUpdateOrdersIndentsCommand(projects),
    new ProjectUpdateCommand(projects),
    new ProjectMoveCommand(projects),
    new ProjectReorderCommand(projects),
    new ProjectArchiveCommand(projects),
    new ProjectUnarchiveCommand(projects),
    new ProjectDeleteCommand(projects, sections, items),
  ];
}
