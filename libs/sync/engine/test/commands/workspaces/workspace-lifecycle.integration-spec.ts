import type { WorkspaceDeleted, WorkspaceInvitationAnswered, WorkspaceInvitationSent, WorkspaceUserRemoved } from '@doable/contracts-sync';
import { giveWorkspacePlan } from '@doable/sync-domain/testing';
import type { WorkspaceRow } from '@doable/sync-domain';
import { WorkspaceHarness } from '../../../testing/workspace.harness';

const ADA = '7301';
const BEN = '7302';
const CY = '7303';
const DEE = '7304';
const USERS = { [ADA]: 'ada@ws.test', [BEN]: 'ben@ws.test', [CY]: 'cy@ws.test', [DEE]: 'dee@ws.test' };

describe('workspace lifecycle commands and their reads (real PostgreSQL)', () => {
  const harness = new WorkspaceHarness();
  const workspaceIn = (rows: WorkspaceRow[] | undefined, id: string) => rows?.find((row) => row.id === id);

  beforeAll(() => harness.start('workspace_lifecycle', USERS));
  afterAll(() => harness.stop());

  it('workspace_add makes a workspace with its creator as ADMIN, seen in a full sync with its counts and plan', async () => {
    const id = await harness.create(ADA, 'workspace_add', { name: 'Acme', description: 'the team', domain_name: 'Acme.test', is_guest_allowed: false });
    const read = await harness.read(ADA);
    const workspace = workspaceIn(read.rows.workspaces, id)!;
    expect(workspace).toMatchObject({
      name: 'Acme',
      description: 'the team',
      creator_id: ADA,
      role: 'ADMIN',
      domain_name: 'acme.test',
      is_guest_allowed: false,
      is_deleted: false,
      plan_type: 'STARTER',
      admin_count: 1,
      member_count: 0,
      guest_count: 0,
      current_active_projects: 0,
    });
    expect(workspace.invite_code).toMatch(/^[A-Za-z0-9_-]{24}$/);
    // workspace_users is never part of a full sync (sync-interface §4.1).
    expect(read.types.has('workspace_users')).toBe(false);
    expect(read.rows.workspace_users).toBeUndefined();
    // Others see nothing of it.
    expect((await harness.read(BEN)).rows.workspaces).toEqual([]);
  });

  it('refuses bad arguments with coded errors', async () => {
    expect(await harness.status(ADA, 'workspace_add', {})).toMatchObject({ error_tag: 'ARGUMENT_MISSING', http_code: 400 });
    expect(await harness.status(ADA, 'workspace_add', { name: '   ' })).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE', http_code: 400 });
    expect(await harness.status(ADA, 'workspace_add', { name: 'x', domain_name: 'not a domain' })).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE' });
    expect(await harness.status(ADA, 'workspace_update', { name: 'x' })).toMatchObject({ error_tag: 'ARGUMENT_MISSING' });
  });

  it('max_free_workspaces_created caps the starter workspaces a user creates', async () => {
    const { dataSource } = harness;
    await dataSource.query(`UPDATE sync.user_plans SET limits = jsonb_set(limits, '{current,max_free_workspaces_created}', '1') WHERE user_id = $1`, [DEE]);
    const first = await harness.create(DEE, 'workspace_add', { name: 'One' });
    expect(await harness.status(DEE, 'workspace_add', { name: 'Two' })).toMatchObject({
      error_tag: 'MAX_FREE_WORKSPACES_LIMIT_REACHED',
      http_code: 403,
      error_extra: { limit: 'max_free_workspaces_created', max_count: 1 },
    });
    // A paid workspace is not a free one: once upgraded, another may be created.
    await giveWorkspacePlan(dataSource.manager, first, 'BUSINESS');
    expect(await harness.status(DEE, 'workspace_add', { name: 'Two' })).toBe('ok');
  });

  it('workspace_update: admins change settings, members only their own is_collapsed; others are told it does not exist', async () => {
    const id = await harness.create(ADA, 'workspace_add', { name: 'Settings' });
    await harness.addMember(id, BEN, 'MEMBER');
    const benToken = (await harness.read(BEN)).syncToken;

    expect(await harness.status(BEN, 'workspace_update', { id, name: 'Mine now' })).toMatchObject({ error_tag: 'FORBIDDEN', http_code: 403 });
    expect(await harness.status(CY, 'workspace_update', { id, name: 'Mine now' })).toMatchObject({ error_tag: 'WORKSPACE_NOT_FOUND', http_code: 404 });
    expect(await harness.status(BEN, 'workspace_update', { id, is_collapsed: true })).toBe('ok');
    expect(await harness.status(ADA, 'workspace_update', { id, name: 'Renamed', description: null })).toBe('ok');

    const incremental = await harness.read(BEN, benToken);
    expect(workspaceIn(incremental.rows.workspaces, id)).toMatchObject({ name: 'Renamed', description: '', is_collapsed: true, role: 'MEMBER', member_count: 1 });
    // Ada's sidebar is her own.
    expect(workspaceIn((await harness.read(ADA)).rows.workspaces, id)).toMatchObject({ is_collapsed: false });
  });

  it('an incremental sync carries a joined workspace whole, its members in workspace_users', async () => {
    const id = await harness.create(ADA, 'workspace_add', { name: 'Joined' });
    const cyToken = (await harness.read(CY)).syncToken;
    await harness.addMember(id, CY, 'GUEST');
    const read = await harness.read(CY, cyToken);
    expect(workspaceIn(read.rows.workspaces, id)).toMatchObject({ role: 'GUEST', guest_count: 1 });
    expect(read.rows.workspace_users?.filter((user) => user.workspace_id === id).map((user) => [user.user_id, user.role, user.is_deleted])).toEqual([
      [ADA, 'ADMIN', false],
      [CY, 'GUEST', false],
    ]);
  });

  it("a member's incremental sync carries the workspace again when its active-project count moves", async () => {
    const id = await harness.create(ADA, 'workspace_add', { name: 'Counted' });
    await harness.addMember(id, BEN, 'MEMBER');
    const benToken = (await harness.read(BEN)).syncToken;
    await harness.create(ADA, 'project_add', { name: 'Counted project', workspace_id: id });
    // Ben is no collaborator of the new project, yet the workspace he reads counts it.
    const read = await harness.read(BEN, benToken);
    expect(workspaceIn(read.rows.workspaces, id)).toMatchObject({ current_active_projects: 1 });
    expect(read.rows.projects?.map((project) => project.name)).not.toContain('Counted project');
  });

  it('workspace_leave: the user loses the workspace and its projects at once; the last admin may not leave others behind', async () => {
    const id = await harness.create(ADA, 'workspace_add', { name: 'Leaving' });
    await harness.addMember(id, BEN, 'MEMBER');
    const projectId = await harness.create(ADA, 'project_add', { name: 'Team project' });
    // Ben is a collaborator of a project of the workspace (set as the workspace project commands will).
    await harness.dataSource.query(`UPDATE sync.projects SET workspace_id = $2 WHERE id = $1`, [projectId, id]);
    await harness.dataSource.query(`INSERT INTO sync.project_members (project_id, user_id, role, version) VALUES ($1, $2, 'READ_WRITE', nextval('sync.change_version'))`, [projectId, BEN]);
    const benToken = (await harness.read(BEN)).syncToken;
    const adaToken = (await harness.read(ADA)).syncToken;

    expect(await harness.status(ADA, 'workspace_leave', { id })).toMatchObject({ error_tag: 'FORBIDDEN' });
    expect(await harness.status(BEN, 'workspace_leave', { workspace_id: id })).toBe('ok');

    const ben = await harness.read(BEN, benToken);
    expect(workspaceIn(ben.rows.workspaces, id)).toMatchObject({ is_deleted: true });
    expect(ben.rows.projects?.find((project) => project.id === projectId)).toMatchObject({ is_deleted: true });
    expect((await harness.read(BEN)).rows.projects?.map((project) => project.id)).not.toContain(projectId);
    expect(await harness.status(BEN, 'item_add', { project_id: projectId, content: 'sneaky' })).toMatchObject({ error_tag: 'PROJECT_NOT_FOUND' });

    const ada = await harness.read(ADA, adaToken);
    expect(ada.rows.workspace_users?.find((user) => user.workspace_id === id && user.user_id === BEN)).toMatchObject({ is_deleted: true });
    expect(workspaceIn(ada.rows.workspaces, id)).toMatchObject({ member_count: 0 });
    expect(await harness.events<WorkspaceUserRemoved>('sync.evt.workspace-user-removed.v1')).toContainEqual({ workspaceId: id, workspaceName: 'Leaving', userId: BEN, removedBy: null });
  });

  it('workspace_delete (admins only): tombstones for every member, its projects deleted, one event naming the members', async () => {
    const id = await harness.create(ADA, 'workspace_add', { name: 'Doomed' });
    await harness.addMember(id, BEN, 'MEMBER');
    const projectId = await harness.create(ADA, 'project_add', { name: 'Doomed project' });
    await harness.dataSource.query(`UPDATE sync.projects SET workspace_id = $2 WHERE id = $1`, [projectId, id]);
    const benToken = (await harness.read(BEN)).syncToken;

    expect(await harness.status(BEN, 'workspace_delete', { id })).toMatchObject({ error_tag: 'FORBIDDEN' });
    expect(await harness.status(ADA, 'workspace_delete', { id })).toBe('ok');

    expect(workspaceIn((await harness.read(BEN, benToken)).rows.workspaces, id)).toMatchObject({ is_deleted: true });
    expect(workspaceIn((await harness.read(BEN)).rows.workspaces, id)).toBeUndefined();
    expect((await harness.read(ADA)).rows.projects?.map((project) => project.id)).not.toContain(projectId);
    // Deleted is gone: nothing more can be done in it.
    expect(await harness.status(ADA, 'workspace_update', { id, name: 'Back' })).toMatchObject({ error_tag: 'WORKSPACE_NOT_FOUND' });
    const deleted = (await harness.events<WorkspaceDeleted>('sync.evt.workspace-deleted.v1')).find((event) => event.workspaceId === id);
    expect(deleted).toMatchObject({ workspaceName: 'Doomed', actor: { id: ADA }, memberIds: [ADA, BEN] });
  });

  it('workspace_delete withdraws its open invitations: the invitee is told, and it can no longer be accepted', async () => {
    const id = await harness.create(ADA, 'workspace_add', { name: 'Invited to nothing' });
    expect(await harness.status(ADA, 'workspace_invite', { workspace_id: id, email: USERS[CY] })).toBe('ok');
    const sent = (await harness.events<WorkspaceInvitationSent>('sync.evt.workspace-invitation-sent.v1')).filter((event) => event.workspaceId === id).at(-1)!;
    expect(await harness.status(ADA, 'workspace_delete', { id })).toBe('ok');

    const answered = (await harness.events<WorkspaceInvitationAnswered>('sync.evt.workspace-invitation-answered.v1')).filter((event) => event.workspaceId === id);
    expect(answered).toEqual([expect.objectContaining({ invitationId: sent.invitationId, answer: 'deleted', actor: expect.objectContaining({ id: ADA }) })]);
    const [row] = await harness.dataSource.query<Array<{ state: string }>>(`SELECT state FROM sync.workspace_invitations WHERE id = $1`, [sent.invitationId]);
    expect(row.state).toBe('deleted');
    expect(await harness.status(CY, 'biz_accept_invitation', { invitation_id: sent.invitationId, invitation_secret: sent.invitationSecret })).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE', error_extra: { state: 'deleted' } });
  });
});
