import { WorkspaceHarness } from '@doable/sync-engine/testing';
import type { ProjectRow } from '@doable/sync-domain';
import { syncApiV1Writers } from './sync-api-v1.writers';

const ADA = '7601';
const BEN = '7602';

/** What project_add's and project_join's workspace projects look like on api/v1 (sdk 17 WorkspaceProject). */
describe('workspace projects in the api/v1 project object (real PostgreSQL)', () => {
  const harness = new WorkspaceHarness();
  const read = async (userId: string, id: string): Promise<ProjectRow> => (await harness.read(userId)).rows.projects!.find((row) => row.id === id)!;

  beforeAll(() => harness.start('workspace_project_writer', { [ADA]: 'ada@wpw.test', [BEN]: 'ben@wpw.test' }));
  afterAll(() => harness.stop());

  it("carries the team fields and the reader's own role; a personal project carries no workspace_id at all", async () => {
    const ws = await harness.create(ADA, 'workspace_add', { name: 'Writers' });
    await harness.addMember(ws, BEN, 'MEMBER');
    const folder = await harness.create(ADA, 'folder_add', { workspace_id: ws, name: 'F' });
    const id = await harness.create(ADA, 'project_add', {
      name: 'Team',
      workspace_id: ws,
      folder_id: folder,
      status: 'PLANNED',
      access: { visibility: 'restricted' },
      collaborator_role_default: 'EDIT_ONLY',
    });
    const fields = { workspace_id: ws, folder_id: folder, is_invite_only: false, status: 'PLANNED', access: { visibility: 'restricted' }, collaborator_role_default: 'EDIT_ONLY', is_link_sharing_enabled: true };
    expect(syncApiV1Writers.project(await read(ADA, id))).toMatchObject({ ...fields, role: 'CREATOR' });
    expect(await harness.status(BEN, 'project_join', { project_id: id })).toBe('ok');
    expect(syncApiV1Writers.project(await read(BEN, id))).toMatchObject({ ...fields, role: 'EDIT_ONLY', is_shared: true });

    const personal = await harness.create(ADA, 'project_add', { name: 'Mine' });
    expect(syncApiV1Writers.project(await read(ADA, personal))).not.toHaveProperty('workspace_id');
  });
});
