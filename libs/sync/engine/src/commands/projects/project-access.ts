import { DomainError } from '@doable/shared-errors';
import { type Project, type ProjectRepository } from '@doable/sync-domain';
import type { CommandContext } from '../../command-handler';

/**
 * The project an argument names, if the user can see it and their role allows the command
 * (CommandContext.requireAccess); PROJECT_NOT_FOUND for one they cannot see.
 */
export async function loadProject(projects: ProjectRepository, context: CommandContext, value: unknown, argument = 'id'): Promise<Project> {
  const project = await findProject(projects, context, value, argument);
  await context.requireAccess(project.id);
  return project;
}

/**
 * The project an argument names, if the user can see it, whatever their role: only for a
 * command that changes nothing in the project (the user's own view of it).
 */
export async function findProject(projects: ProjectRepository, context: CommandContext, value: unknown, argument = 'id'): Promise<Project> {
  const id = await context.resolveId(value, argument);
  const project = await projects.findVisible(context.tx.manager, context.userId, id);
  if (!project) throw new DomainError('PROJECT_NOT_FOUND', 'Project not found', { argument, id });
  return project;
}

/** The Inbox is where tasks go by default: it cannot be deleted, archived or nested. */
export function refuseInbox(project: Project, action: string): void {
  if (project.inbox_project) throw new DomainError('FORBIDDEN', `The Inbox project cannot be ${action}`, { argument: 'id' });
}
