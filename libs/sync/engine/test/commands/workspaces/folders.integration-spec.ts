import { giveWorkspacePlan } from '@doable/sync-domain/testing';
import type { FolderRow } from '@doable/sync-domain';
import { WorkspaceHarness } from '../../../testing/workspace.harness';

const ADA = '7501'; // ADMIN
const BEN = '7502'; // MEMBER
const CY = '7503'; // GUEST
const DEE = '7504'; // outsider
const USERS = { [ADA]: 'ada@fold.test', [BEN]: 'ben@fold.test', [CY]: 'cy@fold.test', [DEE]: 'dee@fold.test' };

describe('folder_add, folder_update, folder_delete (real PostgreSQL)', () => {
  const harness = new WorkspaceHarness();
  const folderIn = (rows: FolderRow[] | undefined, id: string) => rows?.find((row) => row.id === id);
  let ws: string;

  beforeAll(async () => {
    await harness.start('workspace_folders', USERS);
    ws = await harness.create(ADA, 'workspace_add', { name: 'Folders' });
    await giveWorkspacePlan(harness.dataSource.manager, ws, 'BUSINESS');
    await harness.addMember(ws, BEN, 'MEMBER');
    await harness.addMember(ws, CY, 'GUEST');
  });
  afterAll(() => harness.stop());

  it('a member adds a folder every member (guests too) sees in their next sync; outsiders see nothing', async () => {
    const tokens = { ada: (await harness.read(ADA)).syncToken, cy: (await harness.read(CY)).syncToken };
    const id = await harness.create(BEN, 'folder_add', { workspace_id: ws, name: ' Marketing ', default_order: 2, child_order: 5 });
    expect(folderIn((await harness.read(ADA, tokens.ada)).rows.folders, id)).toMatchObject({ workspace_id: ws, name: 'Marketing', default_order: 2, child_order: 5, is_deleted: false });
    expect(folderIn((await harness.read(CY, tokens.cy)).rows.folders, id)).toMatchObject({ name: 'Marketing' });
    expect((await harness.read(DEE)).rows.folders ?? []).toEqual([]);
    // Without child_order it goes last.
    const next = await harness.create(ADA, 'folder_add', { workspace_id: ws, name: 'Sales' });
    expect(folderIn((await harness.read(ADA)).rows.folders, next)).toMatchObject({ child_order: 6, default_order: 0 });
  });

  it('refuses guests, outsiders, unknown folders and bad arguments with codes', async () => {
    const id = await harness.create(ADA, 'folder_add', { workspace_id: ws, name: 'Ops' });
    expect(await harness.status(CY, 'folder_add', { workspace_id: ws, name: 'x' })).toMatchObject({ error_tag: 'FORBIDDEN', http_code: 403 });
    expect(await harness.status(CY, 'folder_update', { id, name: 'x' })).toMatchObject({ error_tag: 'FORBIDDEN' });
    expect(await harness.status(CY, 'folder_delete', { id })).toMatchObject({ error_tag: 'FORBIDDEN' });
    expect(await harness.status(DEE, 'folder_add', { workspace_id: ws, name: 'x' })).toMatchObject({ error_tag: 'WORKSPACE_NOT_FOUND', http_code: 404 });
    expect(await harness.status(DEE, 'folder_update', { id, name: 'x' })).toMatchObject({ error_tag: 'FOLDER_NOT_FOUND', http_code: 404 });
    expect(await harness.status(DEE, 'folder_delete', { id })).toMatchObject({ error_tag: 'FOLDER_NOT_FOUND' });
    expect(await harness.status(ADA, 'folder_update', { id: '999999999', name: 'x' })).toMatchObject({ error_tag: 'FOLDER_NOT_FOUND' });
    expect(await harness.status(ADA, 'folder_add', { workspace_id: ws })).toMatchObject({ error_tag: 'ARGUMENT_MISSING', http_code: 400 });
    expect(await harness.status(ADA, 'folder_add', { workspace_id: ws, name: '  ' })).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE' });
    expect(await harness.status(ADA, 'folder_update', { id, child_order: -1 })).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE' });
  });

  it('folder_update renames and reorders', async () => {
    const id = await harness.create(ADA, 'folder_add', { workspace_id: ws, name: 'Old' });
    const token = (await harness.read(BEN)).syncToken;
    expect(await harness.status(BEN, 'folder_update', { id, name: 'New', child_order: 9, default_order: 1 })).toBe('ok');
    expect(folderIn((await harness.read(BEN, token)).rows.folders, id)).toMatchObject({ name: 'New', child_order: 9, default_order: 1 });
  });

  it('folder_delete leaves a tombstone and takes its projects out of it (they are touched for their members)', async () => {
    const id = await harness.create(ADA, 'folder_add', { workspace_id: ws, name: 'Doomed' });
    const project = await harness.create(BEN, 'project_add', { name: 'Inside', workspace_id: ws, folder_id: id });
    const token = (await harness.read(BEN)).syncToken;
    expect(await harness.status(ADA, 'folder_delete', { id })).toBe('ok');
    const read = await harness.read(BEN, token);
    expect(folderIn(read.rows.folders, id)).toMatchObject({ is_deleted: true });
    expect(read.rows.projects?.find((row) => row.id === project)).toMatchObject({ folder_id: null, is_deleted: false });
    expect(folderIn((await harness.read(BEN)).rows.folders, id)).toBeUndefined();
    expect(await harness.status(ADA, 'folder_update', { id, name: 'Back' })).toMatchObject({ error_tag: 'FOLDER_NOT_FOUND' });
    expect(await harness.status(BEN, 'project_update', { id: project, folder_id: id })).toMatchObject({ error_tag: 'FOLDER_NOT_FOUND' });
  });

  it("max_folders_per_workspace of the workspace's plan, at its boundary and with members adding at once; deleting frees a place", async () => {
    const capped = await harness.create(ADA, 'workspace_add', { name: 'Capped folders' });
    await harness.addMember(capped, BEN, 'MEMBER');
    await giveWorkspacePlan(harness.dataSource.manager, capped, 'STARTER', { max_folders_per_workspace: 2 });
    const first = await harness.create(ADA, 'folder_add', { workspace_id: capped, name: 'One' });
    const statuses = await Promise.all([ADA, BEN, BEN, ADA].map((user, index) => harness.status(user, 'folder_add', { workspace_id: capped, name: `Race ${index}` })));
    expect(statuses.filter((status) => status === 'ok')).toHaveLength(1);
    for (const refused of statuses.filter((status) => status !== 'ok')) {
      expect(refused).toMatchObject({ error_tag: 'MAX_FOLDERS_LIMIT_REACHED', http_code: 403, error_extra: { limit: 'max_folders_per_workspace', max_count: 2, workspace_id: capped } });
    }
    expect(await harness.status(BEN, 'folder_delete', { id: first })).toBe('ok');
    expect(await harness.status(BEN, 'folder_add', { workspace_id: capped, name: 'Again' })).toBe('ok');
  });
});
