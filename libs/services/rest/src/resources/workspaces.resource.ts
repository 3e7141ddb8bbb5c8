import { DomainError } from '@doable/shared-errors';
import { Injectable } from '@nestjs/common';
import { nextCursor, requestedPage } from '../call/page-cursor';
import { fieldsSent, optionalId, optionalString, optionalStringArray, requiredId, requiredString } from '../call/rest-args';
import type { RestCall } from '../call/rest-call';
import { single } from '../objects/sync-objects.client';
import type { OperationHandler, RestResource } from './operation';
import { noContent, ok, ResourceKit } from './resource-kit';

/** The workspace settings workspace_add and workspace_update take (sdk 17 AddWorkspaceArgs, snake_case); the command validates them. */
const WORKSPACE_SETTINGS = ['name', 'description', 'is_link_sharing_enabled', 'is_guest_allowed', 'domain_name', 'domain_discovery', 'restrict_email_domains', 'properties'] as const;

/**
 * api/v1 workspaces (sdk 17 WorkspaceClient): writes run the workspace sync commands through
 * the objects RPC; reads are the sync service's workspace object queries, which check the
 * caller's membership (a workspace they are not in is a 404 WORKSPACE_NOT_FOUND).
 */
@Injectable()
export class WorkspacesResource implements RestResource {
  constructor(private readonly kit: ResourceKit) {}

  readonly operations: Readonly<Record<string, OperationHandler>> = {
    'workspaces.list': async (call) => ok((await this.kit.objects.read(call, { resource: 'workspaces' })).objects),
    'workspaces.get': async (call) => ok(await this.kit.objects.readOne(call, { resource: 'workspace', id: call.params['id'] })),
    'workspaces.create': async (call) => {
      requiredString(call.body, 'name', 255);
      return ok(await this.kit.objects.create(call, { type: 'workspace_add', args: fieldsSent(call.body, WORKSPACE_SETTINGS) }, (id) => ({ resource: 'workspace', id })));
    },
    'workspaces.update': async (call) => {
      const id = call.params['id'];
      const reply = await this.kit.objects.change(call, [{ type: 'workspace_update', args: { id, ...fieldsSent(call.body, [...WORKSPACE_SETTINGS, 'is_collapsed']) } }], { resource: 'workspace', id });
      return ok(single(reply));
    },
    'workspaces.delete': (call) => this.command(call, 'workspace_delete', { id: call.params['id'] }),

    'workspaces.users': async (call) => {
      const page = requestedPage(call);
      const reply = await this.kit.objects.read(call, { resource: 'workspace_users', workspace_id: optionalId(call.query, 'workspace_id'), page });
      return ok({ workspace_users: reply.objects, has_more: reply.hasMore, next_cursor: nextCursor(call, page, reply.hasMore) });
    },
    'workspaces.users.invite': async (call) => {
      const emails = optionalStringArray(call.body, 'email_list', 100);
      if (emails === undefined || emails.length === 0) throw new DomainError('ARGUMENT_MISSING', 'Required argument is missing: email_list', { argument: 'email_list' });
      const role = optionalString(call.body, 'role', 16);
      await this.kit.objects.change(call, [{ type: 'workspace_invite', args: { workspace_id: call.params['id'], email_list: emails, ...(role === undefined ? {} : { role }) } }]);
      // The addresses invited, once each, as workspace_invite keeps them (trimmed, lower-cased); it refused the call if any was not an address.
      return ok({ invited_emails: [...new Set(emails.map((email) => email.trim().toLowerCase()))] });
    },
    'workspaces.users.update': async (call) => {
      const { id: workspaceId, user_id: userId } = call.params;
      const role = requiredString(call.body, 'role', 16);
      const reply = await this.kit.objects.change(call, [{ type: 'workspace_update_user', args: { workspace_id: workspaceId, user_id: userId, role } }], {
        resource: 'workspace_membership',
        workspace_id: workspaceId,
        user_id: userId,
      });
      return ok(single(reply));
    },
    'workspaces.users.remove': (call) => this.command(call, 'workspace_delete_user', { workspace_id: call.params['id'], user_id: call.params['user_id'] }),

    'workspaces.invitations': async (call) => {
      const reply = await this.kit.objects.read(call, { resource: 'workspace_invitations', workspace_id: requiredId(call.query, 'workspace_id') });
      // sdk 17 getWorkspaceInvitations: the invited addresses.
      return ok(reply.objects.map((invitation) => invitation.user_email));
    },
    'workspaces.invitations.all': async (call) => ok((await this.kit.objects.read(call, { resource: 'workspace_invitations', workspace_id: optionalId(call.query, 'workspace_id') })).objects),
    'workspaces.invitations.delete': async (call) => {
      const workspaceId = requiredId(call.body, 'workspace_id');
      const email = requiredString(call.body, 'user_email', 320);
      // Read first: the answer is the invitation as it was (sdk 17 validates one), the command then withdraws it.
      const invitation = single(await this.kit.objects.read(call, { resource: 'workspace_invitation', workspace_id: workspaceId, email }));
      await this.kit.objects.change(call, [{ type: 'workspace_delete_invitation', args: { workspace_id: workspaceId, email } }]);
      return ok(invitation);
    },
    'workspaces.invitations.accept': (call) => this.answerInvitation(call, 'biz_accept_invitation'),
    'workspaces.invitations.reject': (call) => this.answerInvitation(call, 'biz_reject_invitation'),
    'workspaces.join': async (call) => {
      const inviteCode = optionalString(call.body, 'invite_code', 200);
      const workspaceId = optionalId(call.body, 'workspace_id');
      const args = { ...(inviteCode === undefined ? {} : { invite_code: inviteCode }), ...(workspaceId === undefined ? {} : { workspace_id: workspaceId }) };
      const reply = await this.kit.objects.change(call, [{ type: 'workspace_join', args }], { resource: 'workspace_membership', ...args });
      return ok(single(reply));
    },
    'workspaces.plan_details': async (call) => ok(single(await this.kit.objects.read(call, { resource: 'workspace_plan_details', workspace_id: requiredId(call.query, 'workspace_id') }))),

    'workspaces.projects.active': (call) => this.projects(call, false),
    'workspaces.projects.archived': (call) => this.projects(call, true),
  };

  /**
   * PUT invitations/{invite_code}/accept|reject: the code is the invitation's secret; the answer
   * the invitation. It is read before the command as well as after: whether answering an
   * invitation keeps its secret is the invitation commands' business, and either way the caller
   * gets the invitation they answered. An unknown code is the command's own refusal.
   */
  private async answerInvitation(call: RestCall, type: 'biz_accept_invitation' | 'biz_reject_invitation') {
    const secret = call.params['invite_code'];
    const query = { resource: 'workspace_invitation', invitation_secret: secret } as const;
    const before = await this.kit.objects.read(call, query).then(single, (error: unknown) => {
      if (error instanceof DomainError && error.code === 'INVITATION_NOT_FOUND') return undefined;
      throw error;
    });
    await this.kit.objects.change(call, [{ type, args: { invitation_secret: secret } }]);
    return ok(before ?? single(await this.kit.objects.read(call, query)));
  }

  private projects(call: RestCall, archived: boolean) {
    return this.kit.list(call, { resource: 'workspace_projects', workspace_id: call.params['id'], archived });
  }

  private async command(call: RestCall, type: string, args: Record<string, unknown>) {
    await this.kit.objects.change(call, [{ type, args }]);
    return noContent();
  }
}
