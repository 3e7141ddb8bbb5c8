import {
  changesProjectMemberships,
  changesWorkspaceMemberships,
  type CommandPolicy,
  type DeclaredCommand,
  type ProjectActionGroup,
  rolePermissions,
  type RolePermissions,
  type WorkspaceActionGroup,
} from '@doable/contracts-sync';
import type { CommandHandler } from './command-handler';

/**
 * Every command's policy, by type, built from the handlers the service registers (the public
 * and the internal ones) and nothing else: the role a command needs, the scopes it asks, whether
 * roles must be read again after it, and the role tables shown to clients are all read here, so
 * no table beside the handlers can drift from them. A declared variant (CommandPolicy.variants)
 * is an entry of its own.
 */
export class CommandPolicies {
  private readonly byType = new Map<string, CommandPolicy>();
  private permissions: RolePermissions | undefined;

  constructor(handlers: Iterable<Pick<CommandHandler, 'type' | 'policy'>>) {
    for (const { type, policy } of handlers) {
      this.add(type, policy);
      for (const [variant, target] of Object.entries(policy.variants)) this.add(variant, { ...policy, target, variants: {} });
    }
  }

  private add(type: string, policy: CommandPolicy): void {
    // Two handlers of one type would leave which one runs to registration order.
    if (this.byType.has(type)) throw new Error(`command ${type} is declared twice`);
    this.byType.set(type, policy);
  }

  /** The declared commands, in registration order. */
  declared(): DeclaredCommand[] {
    return [...this.byType].map(([type, policy]) => ({ type, policy }));
  }

  /** The policy of a type, or undefined for one no handler declares (the client's typo: UNKNOWN_COMMAND later). */
  of(type: string): CommandPolicy | undefined {
    return this.byType.get(type);
  }

  /** The project group a command needs. A type without one is a programming error (a handler asked for a check it did not declare). */
  projectGroup(type: string): ProjectActionGroup {
    const group = this.byType.get(type)?.target.project;
    if (!group) throw new Error(`command ${type} acts in a project but its policy declares no project group`);
    return group;
  }

  /** The workspace group a command needs (a type without one: a programming error, as for projects). */
  workspaceGroup(type: string): WorkspaceActionGroup {
    const group = this.byType.get(type)?.target.workspace;
    if (!group) throw new Error(`command ${type} acts in a workspace but its policy declares no workspace group`);
    return group;
  }

  /** Whether the roles read earlier in a request may be wrong after a command of this type. */
  changesMemberships(type: string): boolean {
    const policy = this.byType.get(type);
    return policy !== undefined && (changesProjectMemberships(policy) || changesWorkspaceMemberships(policy));
  }

  /** The role_actions resource and `GET /api/v1/projects/permissions` (the code's, not an account's: built once). */
  rolePermissions(): RolePermissions {
    this.permissions ??= rolePermissions(this.declared());
    return this.permissions;
  }
}
