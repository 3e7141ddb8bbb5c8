import { isObjectId } from '@doable/contracts-common';
import { WORKSPACE_COMMAND_ACTION_GROUP, type WorkspaceRole, workspaceRoleMay } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import type { EntityManager } from 'typeorm';
import type { WorkspaceMembersRepository } from '../workspaces/workspace-members.repository';

/**
 * The one place a write is checked against the writer's role in the workspace it acts in
 * (CommandContext.requireWorkspaceAccess; every workspace command calls it), as ProjectAccess is
 * for projects. Roles are read once per workspace per request and forgotten after a command that
 * may change memberships.
 */
export class WorkspaceAccess {
  private readonly roles = new Map<string, WorkspaceRole | undefined>();

  constructor(
    private readonly manager: EntityManager,
    private readonly members: WorkspaceMembersRepository,
    private readonly userId: string,
  ) {}

  /**
   * Refuses the command unless the user's workspace role allows its type
   * (WORKSPACE_COMMAND_ACTION_GROUP): WORKSPACE_NOT_FOUND for a non-member (as for a workspace
   * that does not exist), FORBIDDEN for a member whose role does not allow it.
   */
  async require(commandType: string, workspaceId: string): Promise<WorkspaceRole> {
    const group = WORKSPACE_COMMAND_ACTION_GROUP[commandType];
    // A programming error, not a client's: every workspace command has a row in the table.
    if (!group) throw new Error(`command ${commandType} acts in a workspace but has no row in WORKSPACE_COMMAND_ACTION_GROUP`);
    if (!isObjectId(workspaceId)) throw new DomainError('WORKSPACE_NOT_FOUND', 'Workspace not found', { workspace_id: workspaceId });
    if (!this.roles.has(workspaceId)) this.roles.set(workspaceId, await this.members.roleOf(this.manager, workspaceId, this.userId));
    const role = this.roles.get(workspaceId);
    if (!role) throw new DomainError('WORKSPACE_NOT_FOUND', 'Workspace not found', { workspace_id: workspaceId });
    if (!workspaceRoleMay(role, group)) {
      throw new DomainError('FORBIDDEN', `Your role in this workspace (${role}) does not allow ${commandType}`, { workspace_id: workspaceId, role, command_type: commandType });
    }
    return role;
  }

  /** After a command that may have changed memberships or roles: read them again. */
  forget(): void {
    this.roles.clear();
  }
}

/** Workspace commands after which the roles read so far may be wrong. */
const WORKSPACE_MEMBERSHIP_COMMANDS: ReadonlySet<string> = new Set([
  'workspace_add',
  'workspace_delete',
  'workspace_leave',
  'workspace_update_user',
  'workspace_delete_user',
  'workspace_join',
  'accept_workspace_invitation',
  'biz_accept_invitation',
  // Accepting a workspace project's invitation makes an outsider the workspace's GUEST.
  'accept_invitation',
]);

export function changesWorkspaceMemberships(commandType: string): boolean {
  return WORKSPACE_MEMBERSHIP_COMMANDS.has(commandType);
}
