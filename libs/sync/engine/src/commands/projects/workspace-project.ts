import { Injectable } from '@nestjs/common';
import { COLLABORATOR_ROLES, PROJECT_VISIBILITIES } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';
import { FolderRepository, type Project, WorkspaceMembersRepository, WorkspaceRepository } from '@doable/sync-domain';
import type { CommandContext } from '../../command-handler';

/** What the project commands need of workspaces: stateless repositories (projects/index.ts makes them when not given). */
@Injectable()
export class ProjectWorkspaceRepositories {
  constructor(
    readonly workspaces: WorkspaceRepository,
    readonly workspaceMembers: WorkspaceMembersRepository,
    readonly folders: FolderRepository,
  ) {}
}

/**
 * sdk 17 `access: { visibility }` (types/projects), a workspace project's team setting that is no
 * line of the project table (the argument wraps the field). Other keys are accepted and not kept.
 */
export const accessArg = z.object({ visibility: z.enum(PROJECT_VISIBILITIES) }).passthrough();

/**
 * A workspace project's default role for collaborators (its `collaborator_role_default` column):
 * one a collaborator may have, every role but CREATOR. The role model's values, so named here
 * rather than by the project table (which stands below the role model in the contracts).
 */
export const roleDefaultArg = z.enum(COLLABORATOR_ROLES);

/** The folder a workspace project goes in: a live folder of that workspace, or FOLDER_NOT_FOUND. */
export async function requireFolderOf(folders: FolderRepository, context: CommandContext, value: unknown, workspaceId: string, argument = 'folder_id'): Promise<string> {
  const id = await context.resolveId(value, argument);
  if (!(await folders.existsInWorkspace(context.tx.manager, id, workspaceId))) {
    throw new DomainError('FOLDER_NOT_FOUND', 'Folder not found', { argument, id, workspace_id: workspaceId });
  }
  return id;
}

/**
 * Refuses the team settings on a personal project: they mean something only in a workspace
 * (who may join, what they get), so a client sending them for a personal project is told
 * rather than having them kept unseen.
 */
export function refuseTeamArgsOnPersonal(project: Project, args: Record<string, unknown>, names: readonly string[]): void {
  if (project.workspace_id !== null) return;
  // null (folder_id: null, "no folder") is what a personal project has already: no change, no refusal.
  const given = names.find((name) => args[name] !== undefined && args[name] !== null);
  if (given) {
    throw new DomainError('INVALID_ARGUMENT_VALUE', `${given} applies to workspace projects only; this is a personal project`, { argument: given, project_id: project.id });
  }
}
