import type { ShareInvitationSent, WorkspaceProjectArchived } from '@doable/contracts-sync';
import type { ProjectRow, WorkspaceRow } from '@doable/sync-domain';
import { giveWorkspacePlan } from '@doable/sync-domain/testing';
import { WorkspaceHarness } from '../../../testing/workspace.harness';

const ADA = '7401'; // workspace ADMIN
const BEN = '7402'; // workspace MEMBER
const CY = '7403'; // outsider, later a GUEST
const DEE = '7404'; // workspace MEMBER
const EVE = '7405'; // outsider
const USERS = { [ADA]: 'ada@wp.test', [BEN]: 'ben@wp.test', [CY]: 'cy@wp.test', [DEE]: 'dee@wp.test', [EVE]: 'eve@wp.test' };

describe('workspace projects: add, update, join, move, archive, guests (real PostgreSQL)', () => {
  const harness = new WorkspaceHarness();
  const projectIn = (rows: ProjectRow[] | undefined, id: string) => rows?.find((row) => row.id === id);
  const projectIds = async (userId: string) => ((await harness.read(userId)).rows.projects ?? []).map((row) => row.id);
  const workspaceIn = (rows: WorkspaceRow[] | undefined, id: string) => rows?.find((row) => row.id === id);
  const lastSent = async () => (await harness.events<ShareInvitationSent>('sync.evt.share-invitation-sent.v1')).at(-1)!;
  const share = async (from: string, projectId: string, email: string) => harness.status(from, 'share_project', { project_id: projectId, email });
  const invite = async (from: string, projectId: string, userId: string) => {
    expect(await share(from, projectId, USERS[userId as keyof typeof USERS])).toBe('ok');
    const sent = await lastSent();
    return harness.status(userId, 'accept_invitation', { invitation_id: sent.invitationId, invitation_secret: sent.invitationSecret });
  };
  /** A new workspace of Ada's with Ben and Dee as members. */
  const team = async (name: string): Promise<string> => {
    const id = await harness.create(ADA, 'workspace_add', { name });
    await harness.addMember(id, BEN, 'MEMBER');
    await harness.addMember(id, DEE, 'MEMBER');
    return id;
  };

  beforeAll(() => harness.start('workspace_projects', USERS));
  afterAll(() => harness.stop());

  describe('project_add', () => {
    it('makes a workspace project with its team settings; only its creator sees it', async () => {
      const ws = await team('Add');
      const folder = await harness.create(ADA, 'folder_add', { workspace_id: ws, name: 'Q1' });
      const benToken = (await harness.read(BEN)).syncToken;
      const id = await harness.create(BEN, 'project_add', {
        name: 'Launch',
        workspace_id: ws,
        folder_id: folder,
        is_invite_only: true,
        status: 'PLANNED',
        access: { visibility: 'restricted' },
        collaborator_role_default: 'EDIT_ONLY',
      });
      const row = projectIn((await harness.read(BEN, benToken)).rows.projects, id)!;
      expect(row).toMatchObject({ workspace_id: ws, folder_id: folder, is_invite_only: true, status: 'PLANNED', visibility: 'restricted', collaborator_role_default: 'EDIT_ONLY', role: 'CREATOR', owner_id: BEN });
      // Other members see it only once they join (and this one is invite-only); outsiders never.
      expect(await projectIds(ADA)).not.toContain(id);
      expect(await projectIds(EVE)).not.toContain(id);
      expect(workspaceIn((await harness.read(ADA)).rows.workspaces, ws)).toMatchObject({ current_active_projects: 1 });
    });

    it('defaults: team-visible, joinable, IN_PROGRESS, READ_WRITE; a personal project has no workspace', async () => {
      const ws = await team('Defaults');
      const id = await harness.create(ADA, 'project_add', { name: 'Plain team', workspace_id: ws });
      expect(projectIn((await harness.read(ADA)).rows.projects, id)).toMatchObject({ is_invite_only: false, status: 'IN_PROGRESS', visibility: 'team', collaborator_role_default: 'READ_WRITE', folder_id: null });
      const personal = await harness.create(ADA, 'project_add', { name: 'Mine' });
      expect(projectIn((await harness.read(ADA)).rows.projects, personal)).toMatchObject({ workspace_id: null, folder_id: null });
    });

    it('refuses guests, outsiders, a folder of another workspace, bad values, and team arguments without a workspace', async () => {
      const ws = await team('Refusals');
      const other = await team('Other');
      const otherFolder = await harness.create(ADA, 'folder_add', { workspace_id: other, name: 'Theirs' });
      await harness.addMember(ws, CY, 'GUEST');
      expect(await harness.status(CY, 'project_add', { name: 'x', workspace_id: ws })).toMatchObject({ error_tag: 'FORBIDDEN', http_code: 403 });
      expect(await harness.status(EVE, 'project_add', { name: 'x', workspace_id: ws })).toMatchObject({ error_tag: 'WORKSPACE_NOT_FOUND', http_code: 404 });
      expect(await harness.status(BEN, 'project_add', { name: 'x', workspace_id: ws, folder_id: otherFolder })).toMatchObject({ error_tag: 'FOLDER_NOT_FOUND', http_code: 404 });
      expect(await harness.status(BEN, 'project_add', { name: 'x', workspace_id: ws, folder_id: '999999' })).toMatchObject({ error_tag: 'FOLDER_NOT_FOUND' });
      expect(await harness.status(BEN, 'project_add', { name: 'x', workspace_id: ws, status: 'DONE' })).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE', http_code: 400 });
      expect(await harness.status(BEN, 'project_add', { name: 'x', workspace_id: ws, access: { visibility: 'secret' } })).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE' });
      expect(await harness.status(BEN, 'project_add', { name: 'x', workspace_id: ws, collaborator_role_default: 'CREATOR' })).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE' });
      expect(await harness.status(BEN, 'project_add', { name: 'x', is_invite_only: true })).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE', error_extra: { argument: 'is_invite_only' } });
    });

    it("a sub-project belongs to its parent's workspace; a personal parent cannot hold a workspace project", async () => {
      const ws = await team('Tree');
      const parent = await harness.create(ADA, 'project_add', { name: 'Parent', workspace_id: ws });
      const child = await harness.create(ADA, 'project_add', { name: 'Child', parent_id: parent });
      expect(projectIn((await harness.read(ADA)).rows.projects, child)).toMatchObject({ workspace_id: ws, parent_id: parent });
      const personal = await harness.create(ADA, 'project_add', { name: 'Personal parent' });
      expect(await harness.status(ADA, 'project_add', { name: 'x', parent_id: personal, workspace_id: ws })).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE', error_extra: { argument: 'workspace_id' } });
      // project_move keeps trees on one side: the moves between personal and a workspace are their own commands.
      expect(await harness.status(ADA, 'project_move', { id: personal, parent_id: parent })).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE', error_extra: { argument: 'parent_id' } });
      expect(await harness.status(ADA, 'project_move', { id: child, parent_id: personal })).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE' });
      expect(await harness.status(ADA, 'project_move', { id: child, parent_id: null })).toBe('ok');
      expect(projectIn((await harness.read(ADA)).rows.projects, child)).toMatchObject({ workspace_id: ws, parent_id: null });
    });

    it("counts against the workspace plan's max_projects (not the user's), at its boundary, and concurrent adds never overshoot it", async () => {
      const ws = await team('Capped');
      await giveWorkspacePlan(harness.dataSource.manager, ws, 'STARTER', { max_projects: 3 });
      await harness.create(ADA, 'project_add', { name: 'One', workspace_id: ws });
      // Three members at once for the last two places.
      const statuses = await Promise.all([BEN, DEE, ADA].map((user) => harness.status(user, 'project_add', { name: `By ${user}`, workspace_id: ws })));
      expect(statuses.filter((status) => status === 'ok')).toHaveLength(2);
      expect(statuses.find((status) => status !== 'ok')).toMatchObject({ error_tag: 'MAX_PROJECTS_LIMIT_REACHED', http_code: 403, error_extra: { limit: 'max_projects', max_count: 3, workspace_id: ws } });
      const [{ count }] = await harness.dataSource.query<Array<{ count: number }>>(`SELECT count(*)::int AS count FROM sync.projects WHERE workspace_id = $1`, [ws]);
      expect(count).toBe(3);
      // The user's personal projects are not the workspace's.
      expect(await harness.status(BEN, 'project_add', { name: 'Personal still fine' })).toBe('ok');
      // Archiving frees a place; unarchiving takes it again.
      const [first] = (await harness.dataSource.query<Array<{ id: string }>>(`SELECT id::text FROM sync.projects WHERE workspace_id = $1 ORDER BY id LIMIT 1`, [ws])).map((row) => row.id);
      expect(await harness.status(ADA, 'project_archive', { id: first })).toBe('ok');
      expect(await harness.status(DEE, 'project_add', { name: 'Fourth', workspace_id: ws })).toBe('ok');
      expect(await harness.status(ADA, 'project_unarchive', { id: first })).toMatchObject({ error_tag: 'MAX_PROJECTS_LIMIT_REACHED' });
    });
  });

  describe('project_update', () => {
    it('changes the team settings and folder (null takes it out) of a workspace project; refuses them on a personal one', async () => {
      const ws = await team('Update');
      const folder = await harness.create(ADA, 'folder_add', { workspace_id: ws, name: 'F' });
      const id = await harness.create(ADA, 'project_add', { name: 'P', workspace_id: ws });
      expect(
        await harness.status(ADA, 'project_update', {
          id,
          folder_id: folder,
          status: 'PAUSED',
          is_invite_only: true,
          access: { visibility: 'public' },
          collaborator_role_default: 'COMPLETE_ONLY',
          is_link_sharing_enabled: false,
        }),
      ).toBe('ok');
      expect(projectIn((await harness.read(ADA)).rows.projects, id)).toMatchObject({
        folder_id: folder,
        status: 'PAUSED',
        is_invite_only: true,
        visibility: 'public',
        collaborator_role_default: 'COMPLETE_ONLY',
        is_link_sharing_enabled: false,
      });
      expect(await harness.status(ADA, 'project_update', { id, folder_id: null })).toBe('ok');
      expect(projectIn((await harness.read(ADA)).rows.projects, id)).toMatchObject({ folder_id: null, status: 'PAUSED' });
      const other = await team('Other folders');
      const foreign = await harness.create(ADA, 'folder_add', { workspace_id: other, name: 'X' });
      expect(await harness.status(ADA, 'project_update', { id, folder_id: foreign })).toMatchObject({ error_tag: 'FOLDER_NOT_FOUND' });

      const personal = await harness.create(ADA, 'project_add', { name: 'Mine' });
      expect(await harness.status(ADA, 'project_update', { id: personal, status: 'PAUSED' })).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE', error_extra: { argument: 'status' } });
      expect(await harness.status(ADA, 'project_update', { id: personal, folder_id: null, name: 'Renamed' })).toBe('ok');
    });
  });

  describe('project_join', () => {
    it('a member joins a joinable project with its default role and sees it from then on; refusals are coded', async () => {
      const ws = await team('Join');
      const id = await harness.create(ADA, 'project_add', { name: 'Open', workspace_id: ws, collaborator_role_default: 'EDIT_ONLY' });
      const benToken = (await harness.read(BEN)).syncToken;
      expect(await projectIds(BEN)).not.toContain(id);
      expect(await harness.status(BEN, 'project_join', { project_id: id })).toBe('ok');
      const incremental = await harness.read(BEN, benToken);
      expect(projectIn(incremental.rows.projects, id)).toMatchObject({ role: 'EDIT_ONLY', shared: true, workspace_id: ws });
      expect(await harness.status(BEN, 'project_join', { project_id: id })).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE' });
      // EDIT_ONLY: tasks yes, sections no.
      expect(await harness.status(BEN, 'item_add', { project_id: id, content: 'mine' })).toBe('ok');

      const inviteOnly = await harness.create(ADA, 'project_add', { name: 'Closed', workspace_id: ws, is_invite_only: true });
      expect(await harness.status(DEE, 'project_join', { project_id: inviteOnly })).toMatchObject({ error_tag: 'FORBIDDEN', http_code: 403 });
      const archived = await harness.create(ADA, 'project_add', { name: 'Old', workspace_id: ws });
      expect(await harness.status(ADA, 'project_archive', { id: archived })).toBe('ok');
      expect(await harness.status(DEE, 'project_join', { project_id: archived })).toMatchObject({ error_tag: 'FORBIDDEN' });
      const personal = await harness.create(ADA, 'project_add', { name: 'Personal' });
      expect(await harness.status(ADA, 'project_join', { project_id: personal })).toMatchObject({ error_tag: 'NOT_WORKSPACE_PROJECT', http_code: 403 });
      // Someone else's personal project is not found (its existence is not told).
      expect(await harness.status(DEE, 'project_join', { project_id: personal })).toMatchObject({ error_tag: 'PROJECT_NOT_FOUND', http_code: 404 });
      expect(await harness.status(EVE, 'project_join', { project_id: id })).toMatchObject({ error_tag: 'PROJECT_NOT_FOUND', http_code: 404 });
      expect(await harness.status(DEE, 'project_join', { project_id: '999999999' })).toMatchObject({ error_tag: 'PROJECT_NOT_FOUND' });
      await harness.addMember(ws, CY, 'GUEST');
      expect(await harness.status(CY, 'project_join', { project_id: id })).toMatchObject({ error_tag: 'FORBIDDEN' });
      expect(await projectIds(DEE)).not.toContain(inviteOnly);
    });

    it("counts against the workspace plan's max_collaborators, also when members join at once", async () => {
      const ws = await team('Seats');
      await harness.addMember(ws, EVE, 'MEMBER');
      await giveWorkspacePlan(harness.dataSource.manager, ws, 'STARTER', { max_collaborators: 2 });
      const id = await harness.create(ADA, 'project_add', { name: 'Busy', workspace_id: ws });
      const statuses = await Promise.all([BEN, DEE, EVE].map((user) => harness.status(user, 'project_join', { project_id: id })));
      expect(statuses.filter((status) => status === 'ok')).toHaveLength(2);
      expect(statuses.find((status) => status !== 'ok')).toMatchObject({ error_tag: 'MAX_COLLABORATORS_LIMIT_REACHED', error_extra: { max_count: 2, workspace_id: ws } });
    });
  });

  it('a workspace ADMIN with only READ_WRITE in a project may delete its collaborators (sync-interface §5.11); a MEMBER with READ_WRITE may not', async () => {
    const ws = await team('Admins');
    const id = await harness.create(BEN, 'project_add', { name: "Ben's", workspace_id: ws });
    expect(await harness.status(ADA, 'project_join', { project_id: id })).toBe('ok');
    expect(await harness.status(DEE, 'project_join', { project_id: id })).toBe('ok');
    expect(await harness.status(DEE, 'delete_collaborator', { project_id: id, email: USERS[ADA] })).toMatchObject({ error_tag: 'FORBIDDEN' });
    expect(await harness.status(ADA, 'delete_collaborator', { project_id: id, email: USERS[DEE] })).toBe('ok');
    expect(await projectIds(DEE)).not.toContain(id);
  });

  it('project_archive of a workspace project emits workspaceProjectArchived naming its collaborators', async () => {
    const ws = await team('Archive');
    const id = await harness.create(ADA, 'project_add', { name: 'Done soon', workspace_id: ws });
    expect(await harness.status(BEN, 'project_join', { project_id: id })).toBe('ok');
    expect(await harness.status(ADA, 'project_archive', { id })).toBe('ok');
    const events = await harness.events<WorkspaceProjectArchived>('sync.evt.workspace-project-archived.v1');
    expect(events.find((event) => event.projectId === id)).toEqual({
      projectId: id,
      projectName: 'Done soon',
      workspaceId: ws,
      actor: { id: ADA, email: USERS[ADA], full_name: `User ${ADA}`, image_id: null },
      memberIds: [ADA, BEN],
    });
    // A personal project's archive is no workspace event.
    const personal = await harness.create(ADA, 'project_add', { name: 'Personal' });
    expect(await harness.status(ADA, 'project_archive', { id: personal })).toBe('ok');
    expect((await harness.events<WorkspaceProjectArchived>('sync.evt.workspace-project-archived.v1')).some((event) => event.projectId === personal)).toBe(false);
  });

  describe('moving between personal and a workspace', () => {
    it('the creator moves a personal project with its sub-projects in; collaborators stay; a workspace admin moves it back out and owns it', async () => {
      const ws = await team('Moves');
      const folder = await harness.create(ADA, 'folder_add', { workspace_id: ws, name: 'Incoming' });
      const top = await harness.create(BEN, 'project_add', { name: 'Side project' });
      const sub = await harness.create(BEN, 'project_add', { name: 'Sub', parent_id: top });
      expect(await invite(BEN, top, EVE)).toBe('ok');
      const eveToken = (await harness.read(EVE)).syncToken;

      expect(await harness.status(BEN, 'project_move_to_workspace', { project_id: sub, workspace_id: ws })).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE' });
      expect(await harness.status(EVE, 'project_move_to_workspace', { project_id: top, workspace_id: ws })).toMatchObject({ error_tag: 'FORBIDDEN' });
      expect(await harness.status(BEN, 'project_move_to_workspace', { project_id: top, workspace_id: ws, folder_id: folder, is_invite_only: true })).toBe('ok');
      const ben = (await harness.read(BEN)).rows.projects;
      expect(projectIn(ben, top)).toMatchObject({ workspace_id: ws, folder_id: folder, is_invite_only: true });
      expect(projectIn(ben, sub)).toMatchObject({ workspace_id: ws, folder_id: null });
      // Eve (no member of the workspace) stays a collaborator and sees the change.
      expect(projectIn((await harness.read(EVE, eveToken)).rows.projects, top)).toMatchObject({ workspace_id: ws });
      expect(await harness.status(BEN, 'project_move_to_workspace', { project_id: top, workspace_id: ws })).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE' });
      // ...but, being no member of the workspace, brings no one into it.
      expect(await share(EVE, top, 'friend-of-eve@wp.test')).toMatchObject({ error_tag: 'FORBIDDEN', error_extra: { workspace_id: ws, workspace_role: null } });

      // A workspace MEMBER who is not its creator may not take it out; an ADMIN who is a member may.
      expect(await harness.status(DEE, 'project_join', { project_id: top })).toMatchObject({ error_tag: 'FORBIDDEN' }); // invite-only
      expect(await harness.status(ADA, 'project_move_to_personal', { project_id: top })).toMatchObject({ error_tag: 'PROJECT_NOT_FOUND' });
      expect(await invite(BEN, top, ADA)).toBe('ok');
      expect(await harness.status(EVE, 'project_move_to_personal', { project_id: top })).toMatchObject({ error_tag: 'WORKSPACE_NOT_FOUND' });
      expect(await harness.status(ADA, 'project_move_to_personal', { project_id: top })).toBe('ok');
      const ada = (await harness.read(ADA)).rows.projects;
      expect(projectIn(ada, top)).toMatchObject({ workspace_id: null, folder_id: null, owner_id: ADA, role: 'CREATOR' });
      expect(projectIn(ada, sub)).toMatchObject({ workspace_id: null, owner_id: ADA });
      expect(projectIn((await harness.read(BEN)).rows.projects, top)).toMatchObject({ role: 'ADMIN', workspace_id: null });
      expect(projectIn((await harness.read(EVE)).rows.projects, top)).toMatchObject({ workspace_id: null });
      expect(await harness.status(ADA, 'project_move_to_personal', { project_id: top })).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE' });
    });

    it("moving in counts against the target workspace's max_projects; guests may not move projects in", async () => {
      const ws = await team('Full');
      await giveWorkspacePlan(harness.dataSource.manager, ws, 'STARTER', { max_projects: 1 });
      const top = await harness.create(DEE, 'project_add', { name: 'Two of them' });
      await harness.create(DEE, 'project_add', { name: 'Child', parent_id: top });
      expect(await harness.status(DEE, 'project_move_to_workspace', { project_id: top, workspace_id: ws })).toMatchObject({ error_tag: 'MAX_PROJECTS_LIMIT_REACHED', error_extra: { workspace_id: ws } });
      await harness.addMember(ws, CY, 'GUEST');
      const cys = await harness.create(CY, 'project_add', { name: "Cy's" });
      expect(await harness.status(CY, 'project_move_to_workspace', { project_id: cys, workspace_id: ws })).toMatchObject({ error_tag: 'FORBIDDEN' });
      expect(await harness.status(DEE, 'project_move_to_workspace', { project_id: top, workspace_id: '424242' })).toMatchObject({ error_tag: 'WORKSPACE_NOT_FOUND' });
    });
  });

  describe('guests', () => {
    it('sharing a workspace project to an outsider makes them a GUEST on accepting: they see the workspace and only that project', async () => {
      const ws = await team('Guests');
      // The starter plan has no guest seats (max_guests_per_workspace 0).
      const starterProject = await harness.create(BEN, 'project_add', { name: 'Starter', workspace_id: ws });
      expect(await share(BEN, starterProject, USERS[CY])).toMatchObject({ error_tag: 'MAX_GUESTS_LIMIT_REACHED', error_extra: { max_count: 0 } });
      await giveWorkspacePlan(harness.dataSource.manager, ws, 'BUSINESS');
      const shared = await harness.create(BEN, 'project_add', { name: 'With client', workspace_id: ws });
      const other = await harness.create(BEN, 'project_add', { name: 'Internal', workspace_id: ws });
      const cyToken = (await harness.read(CY)).syncToken;
      expect(await invite(BEN, shared, CY)).toBe('ok');
      const read = await harness.read(CY, cyToken);
      expect(workspaceIn(read.rows.workspaces, ws)).toMatchObject({ role: 'GUEST' });
      expect(await projectIds(CY)).toContain(shared);
      expect(await projectIds(CY)).not.toContain(other);
      expect(await harness.status(CY, 'project_join', { project_id: other })).toMatchObject({ error_tag: 'FORBIDDEN' });
      expect(workspaceIn((await harness.read(ADA)).rows.workspaces, ws)).toMatchObject({ guest_count: 1 });
      // Sharing to a member of the workspace makes no guest.
      expect(await invite(BEN, shared, DEE)).toBe('ok');
      expect(workspaceIn((await harness.read(DEE)).rows.workspaces, ws)).toMatchObject({ role: 'MEMBER' });
    });

    it('a guest brings no one in: their share_project is refused whatever their project role, and nothing is written (issue #28)', async () => {
      const ws = await team('Guarded');
      await giveWorkspacePlan(harness.dataSource.manager, ws, 'BUSINESS');
      const invited = await harness.create(BEN, 'project_add', { name: 'Client work', workspace_id: ws, is_invite_only: true });
      expect(await invite(BEN, invited, CY)).toBe('ok');
      const sentBefore = (await harness.events('sync.evt.share-invitation-sent.v1')).length;

      // The reproduction: Cy, a GUEST with READ_WRITE in an invite-only project, shares it with an outsider.
      expect(await share(CY, invited, USERS[EVE])).toMatchObject({ error_tag: 'FORBIDDEN', error_extra: { workspace_id: ws, workspace_role: 'GUEST' } });
      // Nor a member of the workspace, nor with an ADMIN project role an admin gave them.
      expect(await share(CY, invited, USERS[DEE])).toMatchObject({ error_tag: 'FORBIDDEN' });
      expect(await harness.status(BEN, 'project_change_role', { id: invited, user_id: CY, role: 'ADMIN' })).toBe('ok');
      expect(await share(CY, invited, USERS[EVE])).toMatchObject({ error_tag: 'FORBIDDEN', error_extra: { workspace_role: 'GUEST' } });
      expect(await harness.events('sync.evt.share-invitation-sent.v1')).toHaveLength(sentBefore);
      // Eve never became a guest, and lists nothing of the workspace.
      expect(workspaceIn((await harness.read(EVE)).rows.workspaces, ws)).toBeUndefined();
      // A member of the workspace with the same project role may.
      expect(await invite(BEN, invited, DEE)).toBe('ok');
      expect(await share(DEE, invited, USERS[EVE])).toBe('ok');
    });

    it('refuses outsiders when the workspace allows no guests, and past max_guests_per_workspace (open invitations count)', async () => {
      const closed = await harness.create(ADA, 'workspace_add', { name: 'No guests', is_guest_allowed: false });
      const internal = await harness.create(ADA, 'project_add', { name: 'Internal', workspace_id: closed });
      expect(await share(ADA, internal, USERS[EVE])).toMatchObject({ error_tag: 'FORBIDDEN', error_extra: { workspace_id: closed } });

      const ws = await team('Few guests');
      await giveWorkspacePlan(harness.dataSource.manager, ws, 'STARTER', { max_guests_per_workspace: 1 });
      const one = await harness.create(ADA, 'project_add', { name: 'One', workspace_id: ws });
      const two = await harness.create(ADA, 'project_add', { name: 'Two', workspace_id: ws });
      expect(await share(ADA, one, 'stranger@wp.test')).toBe('ok');
      // The open invitation holds the one guest seat: another outsider is refused, the same one is not.
      expect(await share(ADA, two, USERS[EVE])).toMatchObject({ error_tag: 'MAX_GUESTS_LIMIT_REACHED', http_code: 403, error_extra: { limit: 'max_guests_per_workspace', max_count: 1, workspace_id: ws } });
      expect(await share(ADA, two, 'stranger@wp.test')).toBe('ok');
      // Members take no guest seat.
      expect(await share(ADA, two, USERS[BEN])).toBe('ok');
    });
  });

  it("workspace projects count tasks and sections against the workspace plan's max_tasks and max_sections", async () => {
    const ws = await team('Contents');
    await giveWorkspacePlan(harness.dataSource.manager, ws, 'STARTER', { max_tasks: 2, max_sections: 1 });
    const id = await harness.create(ADA, 'project_add', { name: 'Small', workspace_id: ws });
    expect(await harness.status(BEN, 'project_join', { project_id: id })).toBe('ok');
    const statuses = await Promise.all([ADA, BEN, ADA].map((user) => harness.status(user, 'item_add', { project_id: id, content: `by ${user}` })));
    expect(statuses.filter((status) => status === 'ok')).toHaveLength(2);
    expect(statuses.find((status) => status !== 'ok')).toMatchObject({ error_tag: 'MAX_ITEMS_LIMIT_REACHED', error_extra: { max_count: 2, workspace_id: ws } });
    expect(await harness.status(ADA, 'section_add', { project_id: id, name: 'S1' })).toBe('ok');
    expect(await harness.status(ADA, 'section_add', { project_id: id, name: 'S2' })).toMatchObject({ error_tag: 'MAX_SECTIONS_LIMIT_REACHED', error_extra: { workspace_id: ws } });
  });
});
