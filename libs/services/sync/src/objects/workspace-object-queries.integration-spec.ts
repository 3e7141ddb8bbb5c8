import { hashToken } from '@doable/contracts-auth';
import type { ObjectQuery } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { WorkspaceHarness } from '@doable/sync-engine/testing';
import { CompletionStatsRepository, NoteRepository, ProductivityStatsService } from '@doable/sync-domain';
import type { PushTokens } from '../push/push-tokens.service';
import { giveWorkspacePlan } from '@doable/sync-domain/testing';
import { ObjectQueryService } from './object-query.service';
import { ObjectReadsRepository } from './object-reads.repository';
import type { TaskFilterQuery } from './task-filter.query';
import { WorkspaceObjectQueries } from './workspace-object-queries';
import { WorkspaceReadsRepository } from './workspace-reads.repository';

const ADA = '7501';
const BEN = '7502';
const CY = '7503';
const DEE = '7504';
const USERS = { [ADA]: 'ada@wq.test', [BEN]: 'ben@wq.test', [CY]: 'cy@wq.test', [DEE]: 'dee@wq.test' };

/** The keys sdk 17's WorkspaceSchema requires (before its camelCase conversion). */
const WORKSPACE_KEYS = ['id', 'name', 'plan', 'invite_code', 'is_link_sharing_enabled', 'is_guest_allowed', 'creator_id', 'properties'];
/** The keys sdk 17's WorkspacePlanDetailsSchema requires. */
const PLAN_DETAIL_KEYS = [
  'current_member_count', 'current_plan', 'current_plan_status', 'downgrade_at', 'current_active_projects', 'maximum_active_projects', 'price_list',
  'workspace_id', 'is_trialing', 'trial_ends_at', 'cancel_at_period_end', 'has_trialed', 'plan_price', 'has_billing_portal', 'has_billing_portal_switch_to_annual',
];

describe('the api/v1 workspace object queries (real PostgreSQL)', () => {
  const harness = new WorkspaceHarness();
  let queries: ObjectQueryService;
  let workspaceId: string;

  /** Runs a query as a user; answers its objects (or throws its coded error). */
  const query = async (userId: string, q: ObjectQuery) => queries.run(harness.dataSource.manager, userId, q, {});
  // Read as loose JSON: one helper for every resource, whose answers the cases poke at by key.
  const objects = async (userId: string, q: ObjectQuery): Promise<ReadonlyArray<Record<string, any>>> => (await query(userId, q)).objects;
  const refusal = async (userId: string, q: ObjectQuery) => {
    try {
      await query(userId, q);
    } catch (error) {
      if (error instanceof DomainError) return error.code;
      throw error;
    }
    return 'answered';
  };

  beforeAll(async () => {
    await harness.start('workspace_object_queries', USERS);
    const r = harness.repositories;
    const workspaceReads = new WorkspaceReadsRepository();
    queries = new ObjectQueryService(
      new ObjectReadsRepository(),
      r.profiles,
      {} as TaskFilterQuery,
      new ProductivityStatsService(new CompletionStatsRepository(), r.profiles),
      new NoteRepository(),
      new WorkspaceObjectQueries(workspaceReads, r.workspaces, r.workspaceMembers),
      workspaceReads,
      {} as PushTokens, // the user object is not read here
      r.members,
    );
    workspaceId = await harness.create(ADA, 'workspace_add', { name: 'Queried' });
    await harness.addMember(workspaceId, BEN, 'MEMBER');
    await harness.addMember(workspaceId, CY, 'GUEST');
  });
  afterAll(() => harness.stop());

  /** A project of the workspace (set as the workspace project commands will), with its collaborators. */
  async function workspaceProject(name: string, options: { collaborators: string[]; inviteOnly?: boolean; archived?: boolean; folderId?: string; parentId?: string }): Promise<string> {
    const id = await harness.create(options.collaborators[0], 'project_add', { name, ...(options.parentId ? { parent_id: options.parentId } : {}) });
    await harness.dataSource.query(`UPDATE sync.projects SET workspace_id = $2, is_invite_only = $3, is_archived = $4, folder_id = $5 WHERE id = $1`, [
      id,
      workspaceId,
      options.inviteOnly ?? false,
      options.archived ?? false,
      options.folderId ?? null,
    ]);
    for (const userId of options.collaborators.slice(1)) {
      await harness.dataSource.query(`INSERT INTO sync.project_members (project_id, user_id, role, version) VALUES ($1, $2, 'READ_WRITE', nextval('sync.change_version'))`, [id, userId]);
    }
    return id;
  }

  async function folder(name: string): Promise<string> {
    const [{ id }] = await harness.dataSource.query<Array<{ id: string }>>(
      `INSERT INTO sync.folders (workspace_id, name, default_order, version) VALUES ($1, $2, 1, nextval('sync.change_version')) RETURNING id::text`,
      [workspaceId, name],
    );
    return id;
  }

  it('workspaces and workspace: the member workspaces in the REST shape; a guest gets an empty join code; others a 404', async () => {
    const [workspace] = await objects(ADA, { resource: 'workspaces' });
    expect(Object.keys(workspace)).toEqual(expect.arrayContaining(WORKSPACE_KEYS));
    expect(workspace).toMatchObject({ id: workspaceId, name: 'Queried', role: 'ADMIN', plan: 'STARTER', creator_id: ADA, properties: {} });
    expect(workspace['invite_code']).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(await objects(CY, { resource: 'workspace', id: workspaceId })).toEqual([expect.objectContaining({ role: 'GUEST', invite_code: '' })]);
    expect(await objects(DEE, { resource: 'workspaces' })).toEqual([]);
    expect(await refusal(DEE, { resource: 'workspace', id: workspaceId })).toBe('WORKSPACE_NOT_FOUND');
    expect(await refusal(ADA, { resource: 'workspace', id: 'nope' })).toBe('WORKSPACE_NOT_FOUND');
  });

  it('workspace_users: the members of one workspace or of all, paged; a non-member is told the workspace does not exist', async () => {
    const members = await objects(CY, { resource: 'workspace_users', workspace_id: workspaceId });
    expect(members.map((user) => [user['user_id'], user['role']])).toEqual([
      [ADA, 'ADMIN'],
      [BEN, 'MEMBER'],
      [CY, 'GUEST'],
    ]);
    expect(members[0]).toEqual({ user_id: ADA, workspace_id: workspaceId, user_email: 'ada@wq.test', full_name: `User ${ADA}`, timezone: 'UTC', role: 'ADMIN', image_id: null, is_deleted: false });
    const page = await query(BEN, { resource: 'workspace_users', page: { limit: 2, offset: 0 } });
    expect(page.objects).toHaveLength(2);
    expect(page.hasMore).toBe(true);
    expect(await objects(DEE, { resource: 'workspace_users' })).toEqual([]);
    expect(await refusal(DEE, { resource: 'workspace_users', workspace_id: workspaceId })).toBe('WORKSPACE_NOT_FOUND');
  });

  it('workspace_invitations and workspace_invitation: pending ones to those who may invite; the invitee finds theirs by its secret', async () => {
    await harness.dataSource.query(
      `INSERT INTO sync.workspace_invitations (workspace_id, inviter_id, invitee_email, invitee_id, role, secret_hash, version)
       VALUES ($1, $2, 'dee@wq.test', $3, 'MEMBER', $4, nextval('sync.change_version')),
              ($1, $2, 'nobody@wq.test', NULL, 'GUEST', $5, nextval('sync.change_version'))`,
      [workspaceId, BEN, DEE, hashToken('dee-secret'), hashToken('other-secret')],
    );
    const pending = await objects(ADA, { resource: 'workspace_invitations', workspace_id: workspaceId });
    expect(pending).toEqual([
      { id: expect.any(String), inviter_id: BEN, user_email: 'dee@wq.test', workspace_id: workspaceId, role: 'MEMBER' },
      { id: expect.any(String), inviter_id: BEN, user_email: 'nobody@wq.test', workspace_id: workspaceId, role: 'GUEST' },
    ]);
    expect(await objects(BEN, { resource: 'workspace_invitations' })).toEqual(pending);
    expect(await refusal(CY, { resource: 'workspace_invitations', workspace_id: workspaceId })).toBe('FORBIDDEN');
    expect(await objects(CY, { resource: 'workspace_invitations' })).toEqual([]);
    expect(await refusal(DEE, { resource: 'workspace_invitations', workspace_id: workspaceId })).toBe('WORKSPACE_NOT_FOUND');

    expect(await objects(DEE, { resource: 'workspace_invitation', invitation_secret: 'dee-secret' })).toEqual([pending[0]]);
    expect(await refusal(DEE, { resource: 'workspace_invitation', invitation_secret: 'other-secret' })).toBe('INVITATION_NOT_FOUND');
    expect(await objects(ADA, { resource: 'workspace_invitation', workspace_id: workspaceId, email: 'NOBODY@wq.test' })).toEqual([pending[1]]);
    expect(await refusal(CY, { resource: 'workspace_invitation', workspace_id: workspaceId, email: 'nobody@wq.test' })).toBe('FORBIDDEN');
  });

  it('workspace_plan_details: the plan, its counts and no billing', async () => {
    const [details] = await objects(BEN, { resource: 'workspace_plan_details', workspace_id: workspaceId });
    expect(Object.keys(details)).toEqual(expect.arrayContaining(PLAN_DETAIL_KEYS));
    expect(details).toMatchObject({ workspace_id: workspaceId, current_plan: 'Starter', current_plan_status: 'NeverSubscribed', current_member_count: 3, maximum_active_projects: 5, price_list: [], plan_price: null });
    await giveWorkspacePlan(harness.dataSource.manager, workspaceId, 'BUSINESS', { max_projects: 42 });
    expect(await objects(BEN, { resource: 'workspace_plan_details', workspace_id: workspaceId })).toEqual([expect.objectContaining({ current_plan: 'Business', current_plan_status: 'Active', maximum_active_projects: 42 })]);
    expect(await refusal(DEE, { resource: 'workspace_plan_details', workspace_id: workspaceId })).toBe('WORKSPACE_NOT_FOUND');
  });

  it('workspace_membership: the caller own by workspace or join code, another member by id', async () => {
    const [workspace] = await objects(ADA, { resource: 'workspace', id: workspaceId });
    const expected = { custom_sorting_applied: false, project_sort_preference: '', role: 'MEMBER', user_id: BEN, workspace_id: workspaceId };
    expect(await objects(BEN, { resource: 'workspace_membership', workspace_id: workspaceId })).toEqual([expected]);
    expect(await objects(BEN, { resource: 'workspace_membership', invite_code: String(workspace['invite_code']) })).toEqual([expected]);
    expect(await objects(ADA, { resource: 'workspace_membership', workspace_id: workspaceId, user_id: BEN })).toEqual([expected]);
    expect(await refusal(ADA, { resource: 'workspace_membership', workspace_id: workspaceId, user_id: DEE })).toBe('USER_NOT_FOUND');
    expect(await refusal(DEE, { resource: 'workspace_membership', workspace_id: workspaceId })).toBe('WORKSPACE_NOT_FOUND');
  });

  it('workspace_projects: collaborators see theirs, members also those open to the team, guests only their own; archived apart', async () => {
    const open = await workspaceProject('Open', { collaborators: [ADA] });
    const inviteOnly = await workspaceProject('Closed', { collaborators: [ADA, CY], inviteOnly: true });
    const archived = await workspaceProject('Old', { collaborators: [ADA], archived: true });
    const ids = async (userId: string, isArchived: boolean) => (await objects(userId, { resource: 'workspace_projects', workspace_id: workspaceId, archived: isArchived })).map((p) => p['id']);
    expect(await ids(ADA, false)).toEqual(expect.arrayContaining([open, inviteOnly]));
    expect(await ids(BEN, false)).toContain(open);
    expect(await ids(BEN, false)).not.toContain(inviteOnly);
    expect(await ids(CY, false)).toEqual([inviteOnly]);
    expect(await ids(ADA, true)).toEqual([archived]);
    const [project] = await objects(BEN, { resource: 'workspace_projects', workspace_id: workspaceId, archived: false });
    expect(project).toMatchObject({ workspace_id: workspaceId, folder_id: null, is_invite_only: false, status: 'IN_PROGRESS', access: { visibility: 'team' }, role: null });
    expect(await refusal(DEE, { resource: 'workspace_projects', workspace_id: workspaceId, archived: false })).toBe('WORKSPACE_NOT_FOUND');
    expect(await objects(BEN, { resource: 'archived_projects_count', workspace_id: workspaceId })).toEqual([{ count: 1 }]);
    expect(await objects(CY, { resource: 'archived_projects_count', workspace_id: workspaceId })).toEqual([{ count: 0 }]);
    expect(await refusal(DEE, { resource: 'archived_projects_count', workspace_id: workspaceId })).toBe('WORKSPACE_NOT_FOUND');
  });

  it('folders and folder: the workspace folders to every member; a folder of a workspace the reader is not in is not found', async () => {
    const id = await folder('Team folder');
    expect(await objects(CY, { resource: 'folders', workspace_id: workspaceId })).toEqual([
      { id, name: 'Team folder', workspace_id: workspaceId, is_deleted: false, default_order: 1, child_order: 0 },
    ]);
    expect((await objects(BEN, { resource: 'folders' })).map((row) => row['id'])).toEqual([id]);
    expect(await objects(BEN, { resource: 'folder', id })).toEqual([expect.objectContaining({ id, name: 'Team folder' })]);
    expect(await refusal(DEE, { resource: 'folder', id })).toBe('FOLDER_NOT_FOUND');
    expect(await refusal(DEE, { resource: 'folders', workspace_id: workspaceId })).toBe('WORKSPACE_NOT_FOUND');
  });

  it('project_joined: the project with its tasks, sections, comments, people and their states, folder and subprojects', async () => {
    const folderId = await folder('Joined folder');
    const id = await workspaceProject('Joined', { collaborators: [ADA, BEN], folderId });
    const child = await workspaceProject('Child', { collaborators: [ADA, BEN], parentId: id });
    await harness.create(ADA, 'item_add', { project_id: id, content: 'First task' });
    const [joined] = await objects(BEN, { resource: 'project_joined', id });
    expect(joined['project']).toMatchObject({ id, workspace_id: workspaceId, folder_id: folderId });
    expect((joined['tasks'] as Array<Record<string, unknown>>).map((task) => task['content'])).toEqual(['First task']);
    expect(joined['items']).toEqual(joined['tasks']);
    expect(joined['sections']).toEqual([]);
    expect(joined['comments']).toEqual([]);
    expect((joined['collaborators'] as Array<Record<string, unknown>>).map((user) => user['id'])).toEqual([ADA, BEN]);
    expect(joined['collaborator_states']).toEqual([
      { project_id: id, user_id: ADA, state: 'active', is_deleted: false, role: expect.any(String), workspace_role: 'ADMIN' },
      { project_id: id, user_id: BEN, state: 'active', is_deleted: false, role: 'READ_WRITE', workspace_role: 'MEMBER' },
    ]);
    expect(joined['folder']).toMatchObject({ id: folderId, name: 'Joined folder' });
    expect((joined['subprojects'] as Array<Record<string, unknown>>).map((project) => project['id'])).toEqual([child]);
    expect(await refusal(DEE, { resource: 'project_joined', id })).toBe('PROJECT_NOT_FOUND');
  });
});
