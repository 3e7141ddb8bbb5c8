import { type ProjectRole, roleMay, workspaceCollaboratorMay } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import type { EntityManager } from 'typeorm';
import type { ProjectAccessRow, ProjectMembersRepository } from '@doable/sync-domain';
import type { CommandPolicies } from './command-policies';
import { RolesPerRequest } from './roles-per-request';

/**
 * The one place a write is checked against the writer's role in the project it acts in
 * (CommandContext.requireAccess calls it; every command loader calls that). Roles are read once
 * per project per request and forgotten after a command that may change membership.
 */
export class ProjectAccess {
  private readonly roles: RolesPerRequest<ProjectAccessRow>;

  constructor(manager: EntityManager, members: ProjectMembersRepository, userId: string, private readonly policies: CommandPolicies) {
    this.roles = new RolesPerRequest((projectId) => members.effectiveAccessOf(manager, projectId, userId));
  }

  /**
   * Refuses the command unless the user's role in the project (a workspace admin's at least
   * ADMIN in the workspace's projects) allows the group its policy declares (CommandPolicies), and, in a workspace
   * project, their place in the workspace does too (a guest brings no one in:
   * workspaceCollaboratorMay): PROJECT_NOT_FOUND for a non-member (as for a project that does not
   * exist), FORBIDDEN for a member whose role does not allow it.
   */
  async require(commandType: string, projectId: string): Promise<ProjectRole> {
    // A type that declares no project group throws: a programming error, not a client's.
    const group = this.policies.projectGroup(commandType);
    const access = await this.roles.of(projectId);
    if (!access) throw new DomainError('PROJECT_NOT_FOUND', 'Project not found', { project_id: projectId });
    const role = access.role;
    if (!roleMay(role, group)) {
      throw new DomainError('FORBIDDEN', `Your role in this project (${role}) does not allow ${commandType}`, { project_id: projectId, role, command_type: commandType });
    }
    if (access.workspaceId !== null && !workspaceCollaboratorMay(access.workspaceRole, group)) {
      throw new DomainError('FORBIDDEN', `Only members of this project's workspace may run ${commandType}`, {
        project_id: projectId,
        workspace_id: access.workspaceId,
        workspace_role: access.workspaceRole,
        command_type: commandType,
      });
    }
    return role;
  }

  /**
   * The workspace of a project require() read (null: a personal one), read with the role by the
   * same query; undefined when none was read. What the object events carry (object-events.ts).
   */
  workspaceOf(projectId: string): string | null | undefined {
    return this.roles.known(projectId)?.workspaceId;
  }

  /** After a command whose policy declares it changes memberships (CommandPolicies.changesMemberships): read them again. */
  forget(): void {
    this.roles.forget();
  }
}
