import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { administersWorkspace, inWorkspace, ownObjects, PROJECT_DELETE, SyncEvents, workspaceRolesThat } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';
import { ItemRepository, notificationPersonOf, ProjectRepository, SectionRepository, UserProfileRepository, workspaceInvitationAnsweredPayload, WorkspaceInvitationsRepository, WorkspaceMembersRepository, WorkspaceRepository } from '@doable/sync-domain';
import { flag, parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';
import { actingUser } from '../sharing/sharing-args';
import { loadWorkspace, workspaceIdOf, workspaceNameArg, workspaceRef, workspaceSettingsArgs } from './workspace-args';

/** A join link's code: unguessable, URL-safe. */
export function newInviteCode(): string {
  return randomBytes(18).toString('base64url');
}

/**
 * workspace_add (+temp_id): a new workspace on the catalogue's default workspace plan, its
 * creator its first ADMIN. A user may create as many workspaces on the starter plan as their own
 * plan's max_free_workspaces_created allows.
 */
@Injectable()
export class WorkspaceAddCommand implements CommandHandler {
  readonly type = 'workspace_add';
  /** A new workspace is the user's own. */
  readonly policy = ownObjects({ membership: 'workspaces', quantity: 'max_free_workspaces_created' });
  private readonly schema = z.object({ name: workspaceNameArg, ...workspaceSettingsArgs });

  constructor(private readonly workspaces: WorkspaceRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(this.schema, rawArgs);
    // The user's own requests are already one after another (their row's lock): no count lock needed.
    await context.plan.requireRoom('max_free_workspaces_created', { planOf: context.userId, count: () => this.workspaces.countFreeCreatedBy(context.tx.manager, context.userId) });
    const id = await this.workspaces.create(
      context.tx.manager,
      {
        name: args.name,
        description: args.description ?? '',
        creatorId: context.userId,
        inviteCode: newInviteCode(),
        isLinkSharingEnabled: args.is_link_sharing_enabled ?? true,
        isGuestAllowed: args.is_guest_allowed ?? true,
        domainName: args.domain_name ?? null,
        domainDiscovery: args.domain_discovery ?? false,
        restrictEmailDomains: args.restrict_email_domains ?? false,
      },
      context.version,
    );
    context.touchWorkspace(id);
    return { createdId: id };
  }
}

/**
 * workspace_update: the workspace's settings (ADMIN), and the caller's own `is_collapsed` (any
 * member: it is their sidebar, not the workspace). Only `is_collapsed` needs no admin right.
 */
@Injectable()
export class WorkspaceUpdateCommand implements CommandHandler {
  readonly type = 'workspace_update';
  /** Changing only the user's own sidebar state of the workspace is every member's (the public service's workspace_update_user_sidebar_preference). */
  readonly policy = inWorkspace('administer', { variants: { workspace_update_user_sidebar_preference: { workspace: 'belong' } } });
  private readonly schema = z.object({ ...workspaceRef, name: workspaceNameArg.optional(), ...workspaceSettingsArgs, is_collapsed: flag.optional() });

  constructor(
    private readonly workspaces: WorkspaceRepository,
    private readonly members: WorkspaceMembersRepository,
  ) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(this.schema, rawArgs);
    const { is_collapsed: collapsed, id: _id, workspace_id: _workspaceId, properties: _properties, ...settings } = args;
    const changesSettings = Object.values(settings).some((value) => value !== undefined);
    // Collapsing is every member's own sidebar; anything else is the admins'.
    const workspace = await loadWorkspace(this.workspaces, context, workspaceIdOf(args), 'id', changesSettings ? 'workspace_update' : 'workspace_update_user_sidebar_preference');
    const manager = context.tx.manager;
    if (changesSettings) {
      await this.workspaces.update(
        manager,
        workspace.id,
        {
          name: settings.name,
          description: settings.description === null ? '' : settings.description,
          is_link_sharing_enabled: settings.is_link_sharing_enabled,
          is_guest_allowed: settings.is_guest_allowed,
          domain_name: settings.domain_name,
          domain_discovery: settings.domain_discovery,
          restrict_email_domains: settings.restrict_email_domains,
        },
        context.version,
      );
      context.touchWorkspace(workspace.id);
    }
    if (collapsed !== undefined) {
      await this.members.setCollapsed(manager, workspace.id, context.userId, collapsed, context.version);
      // The workspace row carries the reader's is_collapsed: stamped so this user re-reads it
      // (the others see the same workspace again, unchanged for them: a cheap, rare re-read).
      await this.workspaces.touch(manager, workspace.id, context.version);
    }
    return {};
  }
}

/**
 * workspace_delete (ADMIN): the workspace and its projects (with what they hold) become
 * tombstones for everyone who was in it; each member is told (workspace_deleted). Its open
 * invitations are withdrawn, so no invitee is left holding a live invitation to nothing.
 */
@Injectable()
export class WorkspaceDeleteCommand implements CommandHandler {
  readonly type = 'workspace_delete';
  /** Deleting a workspace deletes its projects: the project-deleting scope. */
  readonly policy = inWorkspace('administer', { scopes: PROJECT_DELETE, membership: 'projects_and_workspaces' });
  private readonly schema = z.object(workspaceRef);

  constructor(
    private readonly workspaces: WorkspaceRepository,
    private readonly members: WorkspaceMembersRepository,
    private readonly projects: ProjectRepository,
    private readonly sections: SectionRepository,
    private readonly items: ItemRepository,
    private readonly profiles: UserProfileRepository,
    private readonly invitations: WorkspaceInvitationsRepository,
  ) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(this.schema, rawArgs);
    const workspace = await loadWorkspace(this.workspaces, context, workspaceIdOf(args));
    const manager = context.tx.manager;
    const actor = await actingUser(this.profiles, context);
    const adminIds = await this.members.memberIds(manager, workspace.id, workspaceRolesThat('administer'));
    for (const invitation of await this.invitations.deleteAllOpen(manager, workspace.id, context.version)) {
      await context.tx.emit(SyncEvents.workspaceInvitationAnswered, workspaceInvitationAnsweredPayload(invitation, workspace, actor, 'deleted', adminIds));
      if (invitation.invitee_id) context.touchUsers(invitation.invitee_id);
    }
    const memberIds = await this.members.memberIds(manager, workspace.id);
    const projectIds = await this.projects.idsInWorkspace(manager, workspace.id);
    await this.items.setState(manager, await this.items.idsInProjects(manager, projectIds), { is_deleted: true }, context.version);
    await this.sections.update(manager, await this.sections.idsInProjects(manager, projectIds), { is_deleted: true }, context.version);
    await this.projects.setState(manager, projectIds, { is_deleted: true }, context.version);
    await this.workspaces.update(manager, workspace.id, { is_deleted: true }, context.version);
    context.touch(...projectIds);
    context.touchWorkspace(workspace.id);
    await context.tx.emit(SyncEvents.workspaceDeleted, {
      workspaceId: workspace.id,
      workspaceName: workspace.name,
      actor: notificationPersonOf(actor),
      memberIds,
    });
    return {};
  }
}

/**
 * workspace_leave: the caller stops being a member, and loses the workspace's projects with it.
 * The last admin cannot leave while others remain (someone must run the workspace): they make
 * another member ADMIN first, or delete the workspace.
 */
@Injectable()
export class WorkspaceLeaveCommand implements CommandHandler {
  readonly type = 'workspace_leave';
  readonly policy = inWorkspace('belong', { membership: 'workspaces' });
  private readonly schema = z.object(workspaceRef);

  constructor(
    private readonly workspaces: WorkspaceRepository,
    private readonly members: WorkspaceMembersRepository,
  ) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(this.schema, rawArgs);
    const loaded = await loadWorkspace(this.workspaces, context, workspaceIdOf(args));
    // Counted under the workspace's lock: two admins leaving at once cannot both be "not the last".
    await this.workspaces.lock(context.tx.manager, loaded.id);
    const workspace = (await this.workspaces.findForMember(context.tx.manager, context.userId, loaded.id)) ?? loaded;
    if (administersWorkspace(workspace.role) && workspace.admin_count === 1 && workspace.member_count + workspace.guest_count > 0) {
      throw new DomainError('FORBIDDEN', 'The last admin cannot leave the workspace while it has other members: make another member an admin first', { workspace_id: workspace.id });
    }
    await removeFromWorkspace(context, this.workspaces, this.members, workspace.id, context.userId);
    await context.tx.emit(SyncEvents.workspaceUserRemoved, { workspaceId: workspace.id, workspaceName: workspace.name, userId: context.userId, removedBy: null });
    return {};
  }
}

/**
 * Ends a workspace membership and the user's memberships of its projects, at once (a removed
 * member loses access with this command's commit). The remaining members see the change; the
 * user, no longer a member, is touched by name.
 */
export async function removeFromWorkspace(context: CommandContext, workspaces: WorkspaceRepository, members: WorkspaceMembersRepository, workspaceId: string, userId: string): Promise<void> {
  const manager = context.tx.manager;
  const projectIds = await members.endProjectMemberships(manager, workspaceId, userId, context.version);
  await members.remove(manager, workspaceId, userId, context.version);
  await workspaces.touch(manager, workspaceId, context.version);
  context.touch(...projectIds);
  context.touchWorkspace(workspaceId);
  context.touchUsers(userId);
}
