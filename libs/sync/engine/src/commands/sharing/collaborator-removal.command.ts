import { Injectable } from '@nestjs/common';
import { inProject, ownsProject, SyncEvents } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';
import { type ActiveMember, activeMemberIds, ItemRepository, type Project, ProjectInvitationsRepository, ProjectMembersRepository, ProjectRepository, UserProfileRepository } from '@doable/sync-domain';
import { idArg, parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';
import { loadProject } from '../projects/project-access';
import { emailArg, emitInvitationAnswered } from './sharing-args';
import { recordObjectEvents } from '../../object-events';
import { projectChange } from '../projects/project-events';

/** What ending a membership touches. */
@Injectable()
export class MembershipDeps {
  constructor(
    readonly projects: ProjectRepository,
    readonly members: ProjectMembersRepository,
    readonly items: ItemRepository,
  ) {}
}

/**
 * A member leaves or is removed: the membership ends (its row stays, `deleted`, so the member's
 * next sync carries the project's tombstones), their tasks in the project are unassigned, and
 * the project row changes for those who stay (it may no longer be shared). The one who left is
 * touched by name: they are no member any more, so touching the project would miss them.
 */
async function endMembership(deps: MembershipDeps, context: CommandContext, project: Project, member: ActiveMember, removedBy: string | null): Promise<void> {
  const manager = context.tx.manager;
  await deps.members.remove(manager, project.id, member.user_id, context.version);
  await deps.items.unassignInProject(manager, project.id, member.user_id, context.version);
  await deps.projects.update(manager, project.id, {}, context.version);
  context.touch(project.id);
  context.touchUsers(member.user_id);
  // Who left: the one who ran the command (project_leave) or the one removed.
  await recordObjectEvents(context, [projectChange(project, 'left', { left_user_id: member.user_id })]);
  await context.tx.emit(SyncEvents.collaboratorLeft, {
    projectId: project.id,
    projectName: project.name,
    userId: member.user_id,
    userName: member.full_name,
    removedBy,
    memberIds: await activeMemberIds(manager, project.id),
  });
}

const deleteArgsSchema = z.object({ project_id: idArg, email: emailArg });

/**
 * delete_collaborator: the CREATOR or an ADMIN (requireAccess, the 'manage' group) removes a
 * collaborator by address. The CREATOR cannot be removed. An address that is only invited
 * (a collaborator state `invited`, as clients list it) has its invitation withdrawn instead.
 */
@Injectable()
export class DeleteCollaboratorCommand implements CommandHandler {
  readonly type = 'delete_collaborator';
  readonly policy = inProject('manage', { membership: 'projects' });

  constructor(
    private readonly deps: MembershipDeps,
    private readonly invitations: ProjectInvitationsRepository,
    private readonly profiles: UserProfileRepository,
  ) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(deleteArgsSchema, rawArgs);
    const project = await loadProject(this.deps.projects, context, args.project_id, 'project_id');
    const member = await this.deps.members.findActiveByEmail(context.tx.manager, project.id, args.email);
    if (ownsProject(member?.role)) throw new DomainError('FORBIDDEN', 'The creator of a project cannot be removed from it', { argument: 'email' });
    if (member) {
      await endMembership(this.deps, context, project, member, context.userId);
      return {};
    }
    const invitation = await this.invitations.findOpenForUpdate(context.tx.manager, project.id, args.email);
    if (!invitation) throw new DomainError('INVALID_ARGUMENT_VALUE', 'This address is no collaborator of the project', { argument: 'email' });
    await this.invitations.answer(context.tx.manager, invitation.id, 'deleted', context.version);
    await emitInvitationAnswered(this.profiles, context, invitation, project.name, 'deleted');
    context.touch(project.id);
    if (invitation.invitee_id) context.touchUsers(invitation.invitee_id);
    return {};
  }
}

const leaveArgsSchema = z.object({ project_id: idArg });

/** project_leave: a member leaves a shared project (the CREATOR cannot: their role has no 'leave'; they delete it instead). */
@Injectable()
export class ProjectLeaveCommand implements CommandHandler {
  readonly type = 'project_leave';
  readonly policy = inProject('leave', { membership: 'projects' });

  constructor(private readonly deps: MembershipDeps) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(leaveArgsSchema, rawArgs);
    const project = await loadProject(this.deps.projects, context, args.project_id, 'project_id');
    const member = await this.deps.members.findActiveById(context.tx.manager, project.id, context.userId);
    // requireAccess just found the membership, in this transaction.
    if (!member) throw new Error(`member ${context.userId} of project ${project.id} vanished`);
    await endMembership(this.deps, context, project, member, null);
    return {};
  }
}
