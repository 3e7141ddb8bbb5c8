import { ProjectAddCommand } from './project-add.command';
import { ProjectAddFlatCommand, ProjectUpdateOrdersIndentsCommand } from './project-flat-place.command';
import { ProjectArchiveCommand, ProjectDeleteCommand, ProjectUnarchiveCommand } from './project-lifecycle.command';
import { ProjectMoveCommand } from './project-move.command';
import { ProjectReorderCommand } from './project-reorder.command';
import { ProjectUpdateCommand } from './project-update.command';
import { ProjectJoinCommand } from './project-join.command';
import { ProjectMoveToPersonalCommand, ProjectMoveToWorkspaceCommand } from './project-workspace-move.command';

/** Every project command. */
export const PROJECT_COMMANDS = [
  ProjectAddCommand,
  // Placing by Sync v7's flat positions: see project-flat-place.command.ts.
  ProjectAddFlatCommand,
  ProjectUpdateOrdersIndentsCommand,
  ProjectUpdateCommand,
  ProjectMoveCommand,
  ProjectReorderCommand,
  ProjectArchiveCommand,
  ProjectUnarchiveCommand,
  ProjectDeleteCommand,
  // Workspace projects: joining one, moving one between personal and a workspace.
  ProjectJoinCommand,
  ProjectMoveToWorkspaceCommand,
  ProjectMoveToPersonalCommand,
];
