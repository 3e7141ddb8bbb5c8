import { http, waitFor } from '@doable/shared-testing';
import { runClient } from './support/clients';
import { setWorkspacePlan } from './support/plans';
import { MODES } from './support/system-view';
import { useSystem } from './support/use-system';
import { createWith, fullSync, joinWorkspace, notificationOf, notificationsOf, syncFrom, workspaceCommand } from './support/workspaces';

/**
 * A workspace's whole life with an admin, a member, a guest and a stranger, through the Sync API
 * (api/v1 and v9), the api/v1 REST surface and the official SDK 17: creation, invitations and
 * their notifications, the upgrade and cancellation of its plan, folders, workspace projects
 * (joined, invite-only, shared with the guest), workspace filters, each role's refusals,
 * archiving, removing a member and deleting the workspace. Each step checks what each person's
 * syncs show. The tests of a mode run in order and build on each other.
 */
describe.each(MODES)('workspaces (%s)', (mode) => {
  const { system, accounts: [admin, member, guest, stranger] } = useSystem(mode, { accounts: 4 });
  const rest = (account: { token: string }, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, json?: unknown) => http(system.url, method, path, { token: account.token, ...(json === undefined ? {} : { json }) });
  const ids = { workspace: '', folder: '', roadmap: '', secret: '', filter: '' };
  const tokens: Record<string, string> = {};
  const workspaceIn = (body: any) => (body.workspaces as Array<Record<string, any>>).find((workspace) => workspace.id === ids.workspace);

  it('creates a workspace through REST; only its admin sees it', async () => {
    const created = await rest(admin, 'POST', '/api/v1/workspaces', { name: 'Acme', description: 'Our team' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'Acme', description: 'Our team', plan: 'STARTER', role: 'ADMIN', is_deleted: false, creator_id: admin.userId });
    ids.workspace = created.body.id;

    const full = await fullSync(system, admin);
    expect(workspaceIn(full)).toMatchObject({ name: 'Acme', role: 'ADMIN', plan: 'STARTER', current_member_count: 1 });
    // workspace_users never comes with a full sync (sync-interface §4.1).
    expect(full).not.toHaveProperty('workspace_users');
    tokens['admin'] = full.sync_token;
    expect((await fullSync(system, stranger)).workspaces).toEqual([]);
    expect((await rest(stranger, 'GET', `/api/v1/workspaces/${ids.workspace}`)).status).toBe(404);
  });

  it('invites the member, who accepts from the live notification; both syncs show the change', async () => {
    tokens['member'] = (await fullSync(system, member)).sync_token;
    await joinWorkspace(system, admin, member, ids.workspace, 'MEMBER');
    await notificationOf(system, admin, 'workspace_invitation_accepted', (notification) => String(notification.workspace_id) === ids.workspace);

    const memberSync = await syncFrom(system, member, tokens['member']);
    expect(workspaceIn(memberSync)).toMatchObject({ role: 'MEMBER', current_member_count: 2 });
    // Incremental syncs carry the workspace's members.
    expect(memberSync.workspace_users.filter((user: any) => user.workspace_id === ids.workspace).map((user: any) => [user.user_id, user.role]).sort()).toEqual(
      [[admin.userId, 'ADMIN'], [member.userId, 'MEMBER']].sort(),
    );
    const adminSync = await syncFrom(system, admin, tokens['admin']);
    expect(adminSync.workspace_users.map((user: any) => user.user_id)).toContain(member.userId);
    tokens['admin'] = adminSync.sync_token;
    tokens['member'] = memberSync.sync_token;
  });

  it('refuses what the member role may not do, and a stranger everything', async () => {
    const forbidden = { error_tag: 'FORBIDDEN', http_code: 403 };
    expect((await workspaceCommand(system, member, 'workspace_update', { id: ids.workspace, name: 'Mine' })).status).toMatchObject(forbidden);
    expect((await workspaceCommand(system, member, 'workspace_delete_user', { workspace_id: ids.workspace, user_id: admin.userId })).status).toMatchObject(forbidden);
    expect((await rest(member, 'DELETE', `/api/v1/workspaces/${ids.workspace}`)).status).toBe(403);
    expect((await workspaceCommand(system, stranger, 'workspace_invite', { workspace_id: ids.workspace, email_list: [stranger.email] })).status).toMatchObject({ error_tag: 'WORKSPACE_NOT_FOUND' });
    expect((await rest(stranger, 'GET', `/api/v1/workspaces/users?workspace_id=${ids.workspace}`)).status).toBe(404);
  });

  it('the operator upgrades the workspace: admins and members are told, and their syncs show BUSINESS', async () => {
    await setWorkspacePlan(system, admin, ids.workspace, 'team-business');
    for (const account of [admin, member]) {
      const notification = await notificationOf(system, account, 'teams_workspace_upgraded', (n) => String(n.workspace_id) === ids.workspace);
      expect(notification).toMatchObject({ workspace_name: 'Acme', plan_type: 'BUSINESS' });
    }
    const memberSync = await syncFrom(system, member, tokens['member']);
    expect(workspaceIn(memberSync)).toMatchObject({ plan: 'BUSINESS' });
    tokens['member'] = memberSync.sync_token;
  });

  it('invites the guest through REST; the guest accepts with the invitation code', async () => {
    const invited = await rest(admin, 'POST', `/api/v1/workspaces/${ids.workspace}/users/invite`, { email_list: [guest.email], role: 'GUEST' });
    expect(invited.status).toBe(200);
    expect(invited.body).toEqual({ invited_emails: [guest.email] });
    const invitation = await notificationOf(system, guest, 'workspace_invitation_created', (n) => String(n.workspace_id) === ids.workspace);
    expect(invitation).toMatchObject({ workspace_name: 'Acme', from_user: { email: admin.email }, state: 'invited' });
    const accepted = await rest(guest, 'PUT', `/api/v1/workspaces/invitations/${encodeURIComponent(invitation.invitation_secret)}/accept`);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ workspace_id: ids.workspace, user_email: guest.email, role: 'GUEST' });
    expect(workspaceIn(await fullSync(system, guest))).toMatchObject({ role: 'GUEST' });
    // A guest may not invite.
    expect((await workspaceCommand(system, guest, 'workspace_invite', { workspace_id: ids.workspace, email_list: [stranger.email] })).status).toMatchObject({ error_tag: 'FORBIDDEN' });
  });

  it('folders and workspace projects: the member joins a team project, not an invite-only one; the guest joins none', async () => {
    const folder = await rest(admin, 'POST', '/api/v1/folders', { workspace_id: ids.workspace, name: 'Engineering' });
    expect(folder.status).toBe(200);
    expect(folder.body).toMatchObject({ name: 'Engineering', workspace_id: ids.workspace, is_deleted: false });
    ids.folder = folder.body.id;
    ids.roadmap = await createWith(system, admin, 'project_add', { name: 'Roadmap', workspace_id: ids.workspace, folder_id: ids.folder });
    ids.secret = await createWith(system, admin, 'project_add', { name: 'Secret plans', workspace_id: ids.workspace, is_invite_only: true });

    // Not a collaborator yet: the member does not have the project in their sync, but may browse it.
    expect((await fullSync(system, member)).projects.map((project: any) => project.name)).not.toContain('Roadmap');
    const active = await rest(member, 'GET', `/api/v1/workspaces/${ids.workspace}/projects/active`);
    expect(active.status).toBe(200);
    expect(active.body.results.map((project: any) => project.name)).toContain('Roadmap');

    const joined = await rest(member, 'POST', `/api/v1/projects/${ids.roadmap}/join`);
    expect(joined.status).toBe(200);
    expect(joined.body.project).toMatchObject({ id: ids.roadmap, workspace_id: ids.workspace, folder_id: ids.folder, is_invite_only: false });
    const memberSync = await syncFrom(system, member, tokens['member']);
    expect(memberSync.projects.find((project: any) => project.id === ids.roadmap)).toMatchObject({ name: 'Roadmap', workspace_id: ids.workspace, folder_id: ids.folder });
    expect(memberSync.folders.map((f: any) => f.id)).toContain(ids.folder);
    tokens['member'] = memberSync.sync_token;

    expect((await rest(member, 'POST', `/api/v1/projects/${ids.secret}/join`)).status).toBe(403);
    expect((await rest(guest, 'POST', `/api/v1/projects/${ids.roadmap}/join`)).status).toBe(403);
    expect((await rest(stranger, 'POST', `/api/v1/projects/${ids.roadmap}/join`)).status).toBe(404);
    // The guest cannot create in the workspace either.
    expect((await workspaceCommand(system, guest, 'project_add', { name: 'Guest project', workspace_id: ids.workspace })).status).toMatchObject({ error_tag: 'FORBIDDEN' });
  });

  it('POST /api/v1/projects with workspace_id makes a workspace project for a member; a guest gets 403, a stranger 404, and neither a personal project', async () => {
    const made = await rest(member, 'POST', '/api/v1/projects', { name: 'Made through REST', workspace_id: ids.workspace });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ name: 'Made through REST', workspace_id: ids.workspace });
    const refused = { guest: await rest(guest, 'POST', '/api/v1/projects', { name: 'Not mine', workspace_id: ids.workspace }), stranger: await rest(stranger, 'POST', '/api/v1/projects', { name: 'Not mine', workspace_id: ids.workspace }) };
    expect(refused.guest.status).toBe(403);
    expect(refused.stranger.status).toBe(404);
    expect(refused.stranger.body).toMatchObject({ error_tag: 'WORKSPACE_NOT_FOUND' });
    for (const account of [guest, stranger]) expect((await fullSync(system, account)).projects.map((project: any) => project.name)).not.toContain('Not mine');
    expect((await rest(member, 'DELETE', `/api/v1/projects/${made.body.id}`)).status).toBe(204);
  });

  it('the guest sees exactly the project it was invited to', async () => {
    expect((await workspaceCommand(system, admin, 'share_project', { project_id: ids.secret, email: guest.email })).status).toBe('ok');
    const invitation = await notificationOf(system, guest, 'share_invitation_sent', (n) => n.project_name === 'Secret plans');
    expect((await workspaceCommand(system, guest, 'accept_invitation', { invitation_id: invitation.invitation_id, invitation_secret: invitation.invitation_secret })).status).toBe('ok');
    const names = (await fullSync(system, guest)).projects.map((project: any) => project.name).sort();
    expect(names).toEqual(['Inbox', 'Secret plans']);
    // A guest brings no one in (issue #28): sharing the project it was given with a stranger is
    // refused, and the stranger never becomes a guest who could list the members.
    expect((await workspaceCommand(system, guest, 'share_project', { project_id: ids.secret, email: stranger.email })).status).toMatchObject({ error_tag: 'FORBIDDEN', http_code: 403 });
    expect((await fullSync(system, stranger)).workspaces).toEqual([]);
    expect((await rest(stranger, 'GET', `/api/v1/workspaces/users?workspace_id=${ids.workspace}`)).status).toBe(404);
  });

  it('workspace filters are shared with the members; a guest may not add one', async () => {
    ids.filter = await createWith(system, member, 'workspace_filter_add', { workspace_id: ids.workspace, name: 'Due this week', query: 'due before: +7 days' });
    const adminSync = await syncFrom(system, admin, tokens['admin']);
    expect(adminSync.workspace_filters.find((filter: any) => filter.id === ids.filter)).toMatchObject({ name: 'Due this week', workspace_id: ids.workspace, creator_uid: member.userId });
    tokens['admin'] = adminSync.sync_token;
    expect((await workspaceCommand(system, guest, 'workspace_filter_add', { workspace_id: ids.workspace, name: 'x', query: 'today' })).status).toMatchObject({ error_tag: 'FORBIDDEN' });
  });

  it('answers the workspace in every dialect that has it, and the members through REST', async () => {
    const v9 = await http(system.url, 'POST', '/sync/v9/sync', { token: member.token, json: { sync_token: '*', resource_types: ['workspaces', 'role_actions'] } });
    expect(v9.status).toBe(200);
    expect(v9.body.workspaces.find((workspace: any) => workspace.id === ids.workspace)).toMatchObject({ name: 'Acme', role: 'MEMBER', plan: 'BUSINESS' });
    expect(v9.body.role_actions[0].workspace_collaborator_actions.map((role: any) => role.name)).toEqual(['ADMIN', 'MEMBER', 'GUEST']);

    const users = await rest(member, 'GET', `/api/v1/workspaces/users?workspace_id=${ids.workspace}`);
    expect(users.status).toBe(200);
    expect(users.body.workspace_users.map((user: any) => [user.user_id, user.role]).sort()).toEqual(
      [[admin.userId, 'ADMIN'], [member.userId, 'MEMBER'], [guest.userId, 'GUEST']].sort(),
    );
    const permissions = await rest(member, 'GET', '/api/v1/projects/permissions');
    expect(permissions.body.workspace_collaborator_actions.find((role: any) => role.name === 'GUEST').actions.map((action: any) => action.name)).not.toContain('project_add');
  });

  it('@doist/todoist-sdk 17: getWorkspaces, getWorkspaceUsers, folders and joinProject validate', async () => {
    const second = await createWith(system, admin, 'project_add', { name: 'Second team project', workspace_id: ids.workspace });
    const report = await runClient('todoist-sdk-workspaces.mjs', { DOABLE_URL: system.url, DOABLE_TOKEN: member.token, DOABLE_WORKSPACE: ids.workspace, DOABLE_PROJECT: second });
    expect(report).toEqual({
      workspaces: [{ id: ids.workspace, name: 'Acme', plan: 'BUSINESS', role: 'MEMBER' }],
      users: [admin.userId, guest.userId, member.userId].sort(),
      folders: ['Engineering'],
      folder: 'Engineering',
      joined: { id: second, workspaceId: ids.workspace },
    });
  });

  it("lists a workspace's completed tasks to its members (completed/by_completion_date?workspace_id=)", async () => {
    const taskId = await createWith(system, admin, 'item_add', { project_id: ids.roadmap, content: 'Ship the roadmap' });
    expect((await workspaceCommand(system, admin, 'item_complete', { ids: [taskId] })).status).toMatchObject({ [taskId]: 'ok' });
    const window = `since=${encodeURIComponent(new Date(Date.now() - 86_400_000).toISOString())}&until=${encodeURIComponent(new Date(Date.now() + 86_400_000).toISOString())}`;
    const completed = async (workspaceId: string) =>
      (await rest(member, 'GET', `/api/v1/tasks/completed/by_completion_date?${window}&workspace_id=${workspaceId}`)).body.items.map((item: any) => item.content);
    expect(await completed(ids.workspace)).toEqual(['Ship the roadmap']);
    expect(await completed('9999999999')).toEqual([]);
  });

  it('archiving a workspace project tells its collaborators', async () => {
    expect((await workspaceCommand(system, admin, 'project_archive', { id: ids.roadmap })).status).toBe('ok');
    const archived = await notificationOf(system, member, 'project_archived', (n) => String(n.project_id) === ids.roadmap);
    expect(archived).toMatchObject({ project_name: 'Roadmap', from_user: { email: admin.email } });
    expect((await workspaceCommand(system, admin, 'project_unarchive', { id: ids.roadmap })).status).toBe('ok');
  });

  it('removing the member ends their access at once and tells them', async () => {
    const removed = await rest(admin, 'DELETE', `/api/v1/workspaces/${ids.workspace}/users/${member.userId}`);
    expect(removed.status).toBe(204);
    const memberSync = await syncFrom(system, member, tokens['member']);
    expect(workspaceIn(memberSync)).toMatchObject({ is_deleted: true });
    expect(memberSync.projects.find((project: any) => project.id === ids.roadmap)).toMatchObject({ is_deleted: true });
    expect((await workspaceCommand(system, member, 'item_add', { project_id: ids.roadmap, content: 'still here?' })).status).toMatchObject({ error_tag: 'PROJECT_NOT_FOUND' });
    expect((await rest(member, 'GET', `/api/v1/workspaces/${ids.workspace}`)).status).toBe(404);
    await notificationOf(system, member, 'removed_from_workspace', (n) => String(n.workspace_id) === ids.workspace);
  });

  it('the operator cancels the plan: the admin is told', async () => {
    await setWorkspacePlan(system, admin, ids.workspace, 'team-tiny');
    const canceled = await notificationOf(system, admin, 'teams_workspace_canceled', (n) => String(n.workspace_id) === ids.workspace);
    expect(canceled).toMatchObject({ plan_type: 'STARTER' });
    // The removed member is no longer told anything of it.
    expect((await notificationsOf(system, member)).map((n) => n.notification_type)).not.toContain('teams_workspace_canceled');
  });

  it('deleting the workspace leaves tombstones and tells everyone who was in it', async () => {
    const guestToken = (await fullSync(system, guest)).sync_token;
    expect((await rest(admin, 'DELETE', `/api/v1/workspaces/${ids.workspace}`)).status).toBe(204);
    const guestSync = await syncFrom(system, guest, guestToken);
    expect(workspaceIn(guestSync)).toMatchObject({ is_deleted: true });
    expect(guestSync.projects.find((project: any) => project.id === ids.secret)).toMatchObject({ is_deleted: true });
    await notificationOf(system, guest, 'workspace_deleted', (n) => String(n.workspace_id) === ids.workspace);
    expect((await fullSync(system, admin)).workspaces).toEqual([]);
  });
});

/**
 * SDK 17 validates a full sync of an account in two workspaces, with workspace projects,
 * folders and workspace filters in each.
 */
describe.each(MODES)('a full sync of two workspaces through @doist/todoist-sdk 17 (%s)', (mode) => {
  const { system, accounts: [owner, colleague] } = useSystem(mode, { accounts: 2 });

  it('validates every object of both workspaces', async () => {
    for (const name of ['North', 'South']) {
      const workspaceId = await createWith(system, owner, 'workspace_add', { name });
      await joinWorkspace(system, owner, colleague, workspaceId, 'MEMBER');
      const folderId = await createWith(system, owner, 'folder_add', { workspace_id: workspaceId, name: `${name} folder` });
      const projectId = await createWith(system, owner, 'project_add', { name: `${name} project`, workspace_id: workspaceId, folder_id: folderId });
      await createWith(system, owner, 'item_add', { project_id: projectId, content: `${name} task` });
      await createWith(system, owner, 'workspace_filter_add', { workspace_id: workspaceId, name: `${name} filter`, query: 'today' });
    }
    const report = await waitFor(async () => {
      const counts = await runClient('todoist-sdk-full-sync.mjs', { DOABLE_URL: system.url, DOABLE_TOKEN: owner.token });
      return counts.counts.workspaces === 2 ? counts : undefined;
    }, 'both workspaces in the SDK 17 full sync');
    expect(report.fullSync).toBe(true);
    expect(report.counts).toMatchObject({ workspaces: 2, folders: 2, workspaceFilters: 2, projects: 3, items: 2, roleActions: 1 });
  });
});
