import { EMPTY_DATA, mergeSync } from '../api/sync-merge';
import { personalProjects, projectForest, subProjects, workspaceList, workspaceProjects, workspaceView } from './workspace-selectors';

const data = mergeSync(EMPTY_DATA, {
  full_sync: true,
  workspaces: [
    { id: 'w2', name: 'Zeta Corp' },
    { id: 'w1', name: 'Acme', current_member_count: 3 },
  ],
  folders: [
    { id: 'f1', name: 'Clients', workspace_id: 'w1', child_order: 1 },
    { id: 'f2', name: 'Empty', workspace_id: 'w1', child_order: 2 },
  ],
  projects: [
    { id: 'inbox', name: 'Inbox', inbox_project: true },
    { id: 'p1', name: 'Home', child_order: 2 },
    { id: 'p2', name: 'Garden', child_order: 1 },
    { id: 'p3', name: 'Roadmap', workspace_id: 'w1', folder_id: null, child_order: 1 },
    { id: 'p4', name: 'Client A', workspace_id: 'w1', folder_id: 'f1', child_order: 1 },
    { id: 'p5', name: 'Old', workspace_id: 'w1', is_archived: true },
    { id: 'p6', name: 'Lost folder', workspace_id: 'w1', folder_id: 'f9', child_order: 2 },
  ],
});

describe('workspace selectors', () => {
  it('lists workspaces by name and personal projects apart, without the Inbox or archived ones', () => {
    expect(workspaceList(data).map((workspace) => workspace.id)).toEqual(['w1', 'w2']);
    expect(personalProjects(data).map((project) => project.id)).toEqual(['p2', 'p1']);
  });

  it("groups a workspace's projects by folder, keeping only folders that hold one, the rest loose", () => {
    const view = workspaceView(data, 'w1');
    expect(view?.folders.map((group) => [group.folder.name, group.projects.map((project) => project.id)])).toEqual([['Clients', ['p4']]]);
    expect(view?.loose.map((project) => project.id)).toEqual(['p3', 'p6']);
    expect(workspaceProjects(data, 'w1').map((project) => project.id)).toEqual(['p4', 'p3', 'p6']);
  });

  it('shows members once an incremental sync brings them, keyed by workspace and user', () => {
    const later = mergeSync(data, {
      workspace_users: [
        { workspace_id: 'w1', user_id: 'u2', full_name: 'Bea' },
        { workspace_id: 'w1', user_id: 'u1', full_name: 'Ana' },
        { workspace_id: 'w2', user_id: 'u1', full_name: 'Ana' },
      ],
    });
    expect(workspaceView(later, 'w1')?.members.map((member) => member.full_name)).toEqual(['Ana', 'Bea']);
    const left = mergeSync(later, { workspace_users: [{ workspace_id: 'w1', user_id: 'u2', is_deleted: true }] });
    expect(workspaceView(left, 'w1')?.members.map((member) => member.user_id)).toEqual(['u1']);
    expect(workspaceView(left, 'w2')?.members).toHaveLength(1);
  });

  it('has nothing for an unknown workspace', () => {
    expect(workspaceView(data, 'w9')).toBeNull();
    expect(workspaceProjects(data, 'w9')).toEqual([]);
  });

  it('nests sub-projects under their parent in order; an orphan or a loop stands at the top', () => {
    const nested = mergeSync(EMPTY_DATA, {
      full_sync: true,
      projects: [
        { id: 'a', name: 'Home', child_order: 1 },
        { id: 'b', name: 'Kitchen', parent_id: 'a', child_order: 2 },
        { id: 'c', name: 'Bathroom', parent_id: 'a', child_order: 1 },
        { id: 'd', name: 'Tiles', parent_id: 'c', child_order: 1 },
        { id: 'e', name: 'Shed', parent_id: 'archived', child_order: 2 },
        { id: 'old', name: 'Old room', parent_id: 'a', is_archived: true },
        { id: 'x', name: 'Loop X', parent_id: 'y', child_order: 3 },
        { id: 'y', name: 'Loop Y', parent_id: 'x', child_order: 4 },
      ],
    });
    const shape = (nodes: ReturnType<typeof projectForest>): unknown[] => nodes.map((node) => (node.children.length ? [node.project.id, shape(node.children)] : node.project.id));
    expect(shape(projectForest(personalProjects(nested)))).toEqual([['a', [['c', ['d']], 'b']], 'e', 'x', 'y']);
    expect(subProjects(nested, 'a').map((project) => project.id)).toEqual(['c', 'b']);
  });
});
