import type { Folder, Project, SyncData, Workspace, WorkspaceUser } from '../api/sync-types';

const byOrder = (a: { child_order?: number; name: string }, b: { child_order?: number; name: string }) => (a.child_order ?? 0) - (b.child_order ?? 0) || a.name.localeCompare(b.name);

const listed = (project: Project) => !project.inbox_project && !project.is_archived;

/** The workspaces the person belongs to, by name (the Sync API sends no order of its own for them). */
export function workspaceList(data: SyncData): Workspace[] {
  return [...data.workspaces.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** Projects outside any workspace (the person's own, and personal projects shared with them). */
export function personalProjects(data: SyncData): Project[] {
  return [...data.projects.values()].filter((project) => listed(project) && !project.workspace_id).sort(byOrder);
}

export interface WorkspaceView {
  workspace: Workspace;
  /** The workspace's folders that hold at least one of the projects the person sees, each with them. */
  folders: { folder: Folder; projects: Project[] }[];
  /** Projects in no folder, or in a folder this person was not sent. */
  loose: Project[];
  /** Members, when an incremental sync has brought them (a full sync never does). */
  members: WorkspaceUser[];
}

/** A workspace's projects as the Sync API groups them: by `workspace_id`, then `folder_id`. */
export function workspaceView(data: SyncData, workspaceId: string): WorkspaceView | null {
  const workspace = data.workspaces.get(workspaceId);
  if (!workspace) return null;
  const projects = [...data.projects.values()].filter((project) => listed(project) && project.workspace_id === workspaceId).sort(byOrder);
  const folders = [...data.folders.values()].filter((folder) => folder.workspace_id === workspaceId).sort(byOrder);
  const known = new Set(folders.map((folder) => folder.id));
  return {
    workspace,
    folders: folders.map((folder) => ({ folder, projects: projects.filter((project) => project.folder_id === folder.id) })).filter((group) => group.projects.length > 0),
    loose: projects.filter((project) => !project.folder_id || !known.has(project.folder_id)),
    members: [...data.workspace_users.values()].filter((member) => member.workspace_id === workspaceId).sort((a, b) => (a.full_name ?? '').localeCompare(b.full_name ?? '')),
  };
}

/** A workspace's projects in the navigation's order (folders first, as the workspace page shows them). */
export function workspaceProjects(data: SyncData, workspaceId: string): Project[] {
  const view = workspaceView(data, workspaceId);
  return view ? [...view.folders.flatMap((group) => group.projects), ...view.loose] : [];
}
