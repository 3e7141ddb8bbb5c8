import type { ObjectsReply, ObjectsRequest } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import type { ServiceClient } from '@doable/shared-transport';
import type { RestCall } from '../call/rest-call';
import { SyncObjects } from '../objects/sync-objects.client';
import { FoldersResource } from './folders.resource';
import { ProjectsResource } from './projects.resource';
import { ResourceKit } from './resource-kit';
import { WorkspacesResource } from './workspaces.resource';

/**
 * What each api/v1 workspace, folder and workspace-project endpoint asks of the sync service
 * (commands and query through the objects RPC) and how it shapes the answer. The commands'
 * outcomes are their own integration specs'; here the sync service is a recording stand-in.
 */
class RecordingSync {
  readonly requests: ObjectsRequest[] = [];
  /** What sync answers next, as the JSON it would send, holding only the keys the case reads. */
  replies: Array<Partial<Omit<ObjectsReply, 'objects'>> & { objects?: ReadonlyArray<Record<string, unknown>> }> = [];

  readonly client = {
    request: (_subject: string, payload: ObjectsRequest) => {
      this.requests.push(payload);
      const reply = this.replies.shift() ?? {};
      const tempIds = Object.fromEntries(payload.commands.filter((command) => command.temp_id).map((command) => [command.temp_id, '900']));
      return Promise.resolve({ tempIdMapping: tempIds, objects: [], hasMore: false, ...reply });
    },
  } as unknown as ServiceClient;

  /** The commands and query of the nth request, without the generated uuids and temp ids. */
  sent(index = 0) {
    const request = this.requests[index];
    return { commands: request.commands.map(({ type, args }) => ({ type, args })), query: request.query };
  }
}

function call(operation: string, parts: Partial<Pick<RestCall, 'params' | 'query' | 'body'>> = {}): RestCall {
  return {
    surface: 'rest-api-v1',
    operation,
    principal: { userId: '7', scopes: ['data:read_write'], appId: null, tokenKind: 'personal' },
    params: parts.params ?? {},
    query: parts.query ?? {},
    body: parts.body ?? {},
    requestId: null,
  };
}

async function errorOf(promise: Promise<unknown>): Promise<DomainError | undefined> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  return undefined;
}

describe('api/v1 workspace, folder and workspace-project endpoints', () => {
  let sync: RecordingSync;
  let workspaces: WorkspacesResource;
  let folders: FoldersResource;
  let projects: ProjectsResource;
  const run = (resource: { operations: Readonly<Record<string, (call: RestCall) => Promise<unknown>>> }, operation: string, parts?: Parameters<typeof call>[1]) =>
    resource.operations[operation](call(operation, parts)) as Promise<{ status: number; body: unknown }>;

  beforeEach(() => {
    sync = new RecordingSync();
    const kit = new ResourceKit(new SyncObjects(sync.client), 'http://doable.test');
    workspaces = new WorkspacesResource(kit);
    folders = new FoldersResource(kit);
    projects = new ProjectsResource(kit);
  });

  describe('workspaces', () => {
    it('GET /workspaces and /workspaces/{id} read the workspace queries', async () => {
      sync.replies = [{ objects: [{ id: '1' }, { id: '2' }] }, { objects: [{ id: '1' }] }];
      expect(await run(workspaces, 'workspaces.list')).toEqual({ status: 200, body: [{ id: '1' }, { id: '2' }] });
      expect(await run(workspaces, 'workspaces.get', { params: { id: '1' } })).toEqual({ status: 200, body: { id: '1' } });
      expect(sync.sent(0)).toEqual({ commands: [], query: { resource: 'workspaces' } });
      expect(sync.sent(1)).toEqual({ commands: [], query: { resource: 'workspace', id: '1' } });
    });

    it('POST /workspaces runs workspace_add with the settings sent, and answers the workspace made', async () => {
      sync.replies = [{ objects: [{ id: '900', name: 'Acme' }] }];
      const body = { name: 'Acme', description: 'd', is_guest_allowed: false, domain_name: 'acme.test', unknown_field: 1 };
      expect((await run(workspaces, 'workspaces.create', { body })).body).toEqual({ id: '900', name: 'Acme' });
      const request = sync.requests[0];
      expect(request.commands).toEqual([{ type: 'workspace_add', uuid: expect.any(String), temp_id: expect.any(String), args: { name: 'Acme', description: 'd', is_guest_allowed: false, domain_name: 'acme.test' } }]);
      expect(request.query).toEqual({ resource: 'workspace', id: request.commands[0].temp_id });
      expect(await errorOf(run(workspaces, 'workspaces.create', { body: {} }))).toMatchObject({ code: 'ARGUMENT_MISSING' });
    });

    it('POST /workspaces/{id} runs workspace_update (is_collapsed too) and answers the workspace; DELETE runs workspace_delete', async () => {
      sync.replies = [{ objects: [{ id: '1', name: 'New' }] }];
      expect((await run(workspaces, 'workspaces.update', { params: { id: '1' }, body: { name: 'New', is_collapsed: true } })).body).toEqual({ id: '1', name: 'New' });
      expect(sync.sent(0)).toEqual({ commands: [{ type: 'workspace_update', args: { id: '1', name: 'New', is_collapsed: true } }], query: { resource: 'workspace', id: '1' } });
      expect(await run(workspaces, 'workspaces.delete', { params: { id: '1' } })).toEqual({ status: 204, body: null });
      expect(sync.sent(1)).toEqual({ commands: [{ type: 'workspace_delete', args: { id: '1' } }], query: null });
    });

    it('GET /workspaces/users pages the members: {workspace_users, has_more, next_cursor}', async () => {
      sync.replies = [{ objects: [{ user_id: '7' }], hasMore: true }];
      const reply = await run(workspaces, 'workspaces.users', { query: { workspace_id: '1', limit: '1' } });
      expect(reply.body).toEqual({ workspace_users: [{ user_id: '7' }], has_more: true, next_cursor: expect.any(String) });
      expect(sync.sent(0).query).toEqual({ resource: 'workspace_users', workspace_id: '1', page: { limit: 1, offset: 0 } });
    });

    it('POST /workspaces/{id}/users/invite runs workspace_invite and answers the invited addresses', async () => {
      const reply = await run(workspaces, 'workspaces.users.invite', { params: { id: '1' }, body: { email_list: ['a@x.test', 'b@x.test', ' A@x.test'], role: 'GUEST' } });
      expect(reply.body).toEqual({ invited_emails: ['a@x.test', 'b@x.test'] });
      expect(sync.sent(0).commands).toEqual([{ type: 'workspace_invite', args: { workspace_id: '1', email_list: ['a@x.test', 'b@x.test', ' A@x.test'], role: 'GUEST' } }]);
      expect(await errorOf(run(workspaces, 'workspaces.users.invite', { params: { id: '1' }, body: { email_list: [] } }))).toMatchObject({ code: 'ARGUMENT_MISSING' });
      expect(await errorOf(run(workspaces, 'workspaces.users.invite', { params: { id: '1' }, body: { email_list: 'a@x.test' } }))).toMatchObject({ code: 'INVALID_ARGUMENT_VALUE' });
    });

    it('POST and DELETE /workspaces/{id}/users/{user_id}: workspace_update_user answering the membership, workspace_delete_user', async () => {
      sync.replies = [{ objects: [{ user_id: '8', role: 'ADMIN' }] }];
      expect((await run(workspaces, 'workspaces.users.update', { params: { id: '1', user_id: '8' }, body: { role: 'ADMIN' } })).body).toEqual({ user_id: '8', role: 'ADMIN' });
      expect(sync.sent(0)).toEqual({
        commands: [{ type: 'workspace_update_user', args: { workspace_id: '1', user_id: '8', role: 'ADMIN' } }],
        query: { resource: 'workspace_membership', workspace_id: '1', user_id: '8' },
      });
      expect((await run(workspaces, 'workspaces.users.remove', { params: { id: '1', user_id: '8' } })).status).toBe(204);
      expect(sync.sent(1).commands).toEqual([{ type: 'workspace_delete_user', args: { workspace_id: '1', user_id: '8' } }]);
    });

    it('GET /workspaces/invitations answers the addresses; /invitations/all the invitations', async () => {
      sync.replies = [{ objects: [{ id: '5', user_email: 'a@x.test' }] }, { objects: [{ id: '5', user_email: 'a@x.test' }] }];
      expect((await run(workspaces, 'workspaces.invitations', { query: { workspace_id: '1' } })).body).toEqual(['a@x.test']);
      expect((await run(workspaces, 'workspaces.invitations.all')).body).toEqual([{ id: '5', user_email: 'a@x.test' }]);
      expect(sync.sent(0).query).toEqual({ resource: 'workspace_invitations', workspace_id: '1' });
      expect(sync.sent(1).query).toEqual({ resource: 'workspace_invitations', workspace_id: undefined });
      expect(await errorOf(run(workspaces, 'workspaces.invitations'))).toMatchObject({ code: 'ARGUMENT_MISSING' });
    });

    it('POST /workspaces/invitations/delete reads the invitation, then runs workspace_delete_invitation, and answers it', async () => {
      sync.replies = [{ objects: [{ id: '5', user_email: 'a@x.test' }] }];
      expect((await run(workspaces, 'workspaces.invitations.delete', { body: { workspace_id: '1', user_email: 'a@x.test' } })).body).toEqual({ id: '5', user_email: 'a@x.test' });
      expect(sync.sent(0)).toEqual({ commands: [], query: { resource: 'workspace_invitation', workspace_id: '1', email: 'a@x.test' } });
      expect(sync.sent(1)).toEqual({ commands: [{ type: 'workspace_delete_invitation', args: { workspace_id: '1', email: 'a@x.test' } }], query: null });
    });

    it.each([
      ['workspaces.invitations.accept', 'biz_accept_invitation'],
      ['workspaces.invitations.reject', 'biz_reject_invitation'],
    ])('PUT %s runs %s with the invite code as the secret and answers the invitation, read before it', async (operation, type) => {
      sync.replies = [{ objects: [{ id: '5' }] }];
      expect((await run(workspaces, operation, { params: { invite_code: 's3cr3t' } })).body).toEqual({ id: '5' });
      expect(sync.sent(0)).toEqual({ commands: [], query: { resource: 'workspace_invitation', invitation_secret: 's3cr3t' } });
      expect(sync.sent(1)).toEqual({ commands: [{ type, args: { invitation_secret: 's3cr3t' } }], query: null });
      expect(sync.requests).toHaveLength(2);
    });

    it('PUT accept of an invitation not readable before (a replay, say) answers it as read after', async () => {
      const client = sync.client as unknown as { request: (subject: string, payload: ObjectsRequest) => Promise<unknown> };
      const original = client.request;
      let calls = 0;
      client.request = (subject, payload) => (++calls === 1 ? Promise.reject(new DomainError('INVITATION_NOT_FOUND')) : original(subject, payload));
      sync.replies = [{}, { objects: [{ id: '5' }] }];
      expect((await run(workspaces, 'workspaces.invitations.accept', { params: { invite_code: 's3cr3t' } })).body).toEqual({ id: '5' });
      expect(sync.sent(1)).toEqual({ commands: [], query: { resource: 'workspace_invitation', invitation_secret: 's3cr3t' } });
    });

    it('POST /workspaces/join runs workspace_join by code or by workspace and answers the membership', async () => {
      sync.replies = [{ objects: [{ role: 'MEMBER' }] }, { objects: [{ role: 'MEMBER' }] }];
      expect((await run(workspaces, 'workspaces.join', { body: { invite_code: 'abc' } })).body).toEqual({ role: 'MEMBER' });
      expect(sync.sent(0)).toEqual({ commands: [{ type: 'workspace_join', args: { invite_code: 'abc' } }], query: { resource: 'workspace_membership', invite_code: 'abc' } });
      await run(workspaces, 'workspaces.join', { body: { workspace_id: 1 } });
      expect(sync.sent(1)).toEqual({ commands: [{ type: 'workspace_join', args: { workspace_id: '1' } }], query: { resource: 'workspace_membership', workspace_id: '1' } });
    });

    it('GET /workspaces/plan_details reads the plan details of the workspace named', async () => {
      sync.replies = [{ objects: [{ current_plan: 'Starter' }] }];
      expect((await run(workspaces, 'workspaces.plan_details', { query: { workspace_id: '1' } })).body).toEqual({ current_plan: 'Starter' });
      expect(sync.sent(0).query).toEqual({ resource: 'workspace_plan_details', workspace_id: '1' });
    });

    it('GET /workspaces/{id}/projects/active|archived page the workspace projects as api/v1 projects', async () => {
      sync.replies = [{ objects: [{ id: '3', note_count: 2, workspace_id: '1' }], hasMore: false }, { objects: [] }];
      expect((await run(workspaces, 'workspaces.projects.active', { params: { id: '1' } })).body).toEqual({ results: [{ id: '3', workspace_id: '1' }], next_cursor: null });
      await run(workspaces, 'workspaces.projects.archived', { params: { id: '1' } });
      expect(sync.sent(0).query).toEqual({ resource: 'workspace_projects', workspace_id: '1', archived: false, page: { limit: 50, offset: 0 } });
      expect(sync.sent(1).query).toMatchObject({ resource: 'workspace_projects', archived: true });
    });
  });

  describe('folders', () => {
    it('lists, reads, creates, updates and deletes through folder queries and commands', async () => {
      sync.replies = [{ objects: [{ id: '4' }] }, { objects: [{ id: '4' }] }, { objects: [{ id: '900' }] }, { objects: [{ id: '4', name: 'B' }] }];
      expect((await run(folders, 'folders.list', { query: { workspace_id: '1' } })).body).toEqual({ results: [{ id: '4' }], next_cursor: null });
      expect((await run(folders, 'folders.get', { params: { id: '4' } })).body).toEqual({ id: '4' });
      expect((await run(folders, 'folders.create', { body: { name: 'A', workspace_id: '1', default_order: 2 } })).body).toEqual({ id: '900' });
      expect((await run(folders, 'folders.update', { params: { id: '4' }, body: { name: 'B' } })).body).toEqual({ id: '4', name: 'B' });
      expect((await run(folders, 'folders.delete', { params: { id: '4' } })).status).toBe(204);
      expect(sync.sent(0).query).toEqual({ resource: 'folders', workspace_id: '1', page: { limit: 50, offset: 0 } });
      expect(sync.sent(1).query).toEqual({ resource: 'folder', id: '4' });
      expect(sync.sent(2).commands).toEqual([{ type: 'folder_add', args: { workspace_id: '1', name: 'A', default_order: 2 } }]);
      expect(sync.sent(3)).toEqual({ commands: [{ type: 'folder_update', args: { id: '4', name: 'B' } }], query: { resource: 'folder', id: '4' } });
      expect(sync.sent(4).commands).toEqual([{ type: 'folder_delete', args: { id: '4' } }]);
      expect(await errorOf(run(folders, 'folders.create', { body: { name: 'A' } }))).toMatchObject({ code: 'ARGUMENT_MISSING' });
    });
  });

  describe('workspace projects', () => {
    it('POST /projects/move_to_workspace and /move_to_personal run the move commands and answer {project}', async () => {
      sync.replies = [{ objects: [{ id: '3', note_count: 0, workspace_id: '1' }] }, { objects: [{ id: '3', note_count: 0 }] }];
      const body = { project_id: '3', workspace_id: '1', is_invite_only: true, access: { visibility: 'team' }, folder_id: null };
      expect((await run(projects, 'projects.move_to_workspace', { body })).body).toEqual({ project: { id: '3', workspace_id: '1' } });
      expect(sync.sent(0)).toEqual({
        commands: [{ type: 'project_move_to_workspace', args: { project_id: '3', workspace_id: '1', is_invite_only: true, access: { visibility: 'team' }, folder_id: null } }],
        query: { resource: 'project', id: '3' },
      });
      expect((await run(projects, 'projects.move_to_personal', { body: { project_id: '3' } })).body).toEqual({ project: { id: '3' } });
      expect(sync.sent(1).commands).toEqual([{ type: 'project_move_to_personal', args: { project_id: '3' } }]);
      expect(await errorOf(run(projects, 'projects.move_to_workspace', { body: { project_id: '3' } }))).toMatchObject({ code: 'ARGUMENT_MISSING' });
    });

    it('GET /projects/archived/count?workspace_id= counts that workspace archived projects', async () => {
      sync.replies = [{ objects: [{ count: 3 }] }];
      expect((await run(projects, 'projects.archived_count', { query: { workspace_id: '1' } })).body).toEqual({ count: 3 });
      expect(sync.sent(0).query).toEqual({ resource: 'archived_projects_count', workspace_id: '1' });
    });

    it('POST /projects/{id}/join runs project_join and answers what sdk 17 joinProject validates', async () => {
      const joined = {
        project: { id: '3', note_count: 1, workspace_id: '1' },
        tasks: [{ id: 't' }],
        sections: [{ id: 's' }],
        comments: [{ id: 'n' }],
        collaborators: [{ id: '7' }],
        collaborator_states: [{ project_id: '3', user_id: '7', state: 'active' }],
        folder: { id: '4' },
        subprojects: [{ id: '6', note_count: 0 }],
      };
      sync.replies = [{ objects: [joined] }];
      const reply = await run(projects, 'projects.join', { params: { id: '3' } });
      expect(sync.sent(0)).toEqual({ commands: [{ type: 'project_join', args: { project_id: '3' } }], query: { resource: 'project_joined', id: '3' } });
      expect(reply.body).toMatchObject({
        project: { id: '3', workspace_id: '1' },
        sections: [{ id: 's' }],
        collaborators: [{ id: '7' }],
        collaborator_states: [{ project_id: '3', user_id: '7', state: 'active' }],
        folder: { id: '4' },
        subprojects: [{ id: '6' }],
      });
      const body = reply.body as Record<string, unknown[]>;
      expect(body['tasks']).toHaveLength(1);
      expect(body['items']).toEqual(body['tasks']);
      expect(body['comments']).toHaveLength(1);
      expect(body['notes']).toEqual(body['comments']);
    });
  });
});
