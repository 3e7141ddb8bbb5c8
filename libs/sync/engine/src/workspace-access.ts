import { isObjectId } from '@doable/contracts-common';
import { type WorkspaceRole, workspaceRoleMay } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import type { EntityManager } from 'typeorm';
import type { WorkspaceMembersRepository } from '@doable/sync-domain';
import type { CommandPolicies } from './command-policies';
import { RolesPerRequest } from './roles-per-request';

/**
 * The one place a write is checked against the writer's role in the workspace it acts in
 * (CommandContext.requireWorkspaceAccess; every workspace command calls it), as ProjectAccess is
 * for projects. Roles are read once per workspace per request and forgotten after a command that
 * may change memberships.
 */
export class WorkspaceAccess {
  private readonly roles: RolesPerRequest<WorkspaceRole>;

  constructor(manager: EntityManager, members: WorkspaceMembersRepository, userId: string, private readonly policies: CommandPolicies) {
    this.roles = new RolesPerRequest((workspaceId) => members.roleOf(manager, workspaceId, userId));
  }

  /**
   * Refuses the command unless the user's workspace role allows the group its policy declares
   * (CommandPolicies): WORKSPACE_NOT_FOUND for a non-member (as for a workspace
   * that does not exist), FORBIDDEN for a member whose role does not allow it.
   */
  async require(commandType: string, workspaceId: string): Promise<WorkspaceRole> {
    // A type that declares no workspace group throws: a programming error, not a client's.
    const group = this.policies.workspaceGroup(commandType);
    if (!isObjectId(workspaceId)) throw new DomainError('WORKSPACE_NOT_FOUND', 'Workspace not found', { workspace_id: workspaceId });
    const role = await this.roles.of(workspaceId);
    if (!role) throw new DomainError('WORKSPACE_NOT_FOUND', 'Workspace not found', { workspace_id: workspaceId });
    if (!workspaceRoleMay(role, group)) {
      throw new DomainError('FORBIDDEN', `Your role in this workspace (${role}) does not allow ${commandType}`, { workspace_id: workspaceId, role, command_type: commandType });
    }
    return role;
  }

  /** After a command that may have changed memberships or roles: read them again. */
  forget(): void {
    this.roles.forget();
  }
}
