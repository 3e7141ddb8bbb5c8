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

/** A project with its sub-projects (each in the list's order), as the navigation nests them. */
export interface ProjectNode {
  project: Project;
  children: ProjectNode[];
}

/**
 * Projects as a forest by `parent_id`, keeping the list's order among siblings. A project whose
 * parent is not in the list (archived, in another workspace, not shared with this person) stands
 * at the top, so no project the person sees is hidden under one they do not.
 */
export function projectForest(projects: Project[]): ProjectNode[] {
  const nodes = new Map(projects.map((project) => [project.id, { project, children: [] as ProjectNode[] }]));
  const roots: ProjectNode[] = [];
  for (const project of projects) {
    const node = nodes.get(project.id)!;
    const parent = project.parent_id ? nodes.get(project.parent_id) : undefined;
    // A parent chain that loops back (never sent by the server) would hide the loop: a root then.
    if (parent && !descendsFrom(parent.project, project.id, nodes)) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

function descendsFrom(project: Project, ancestorId: string, nodes: Map<string, ProjectNode>): boolean {
  const seen = new Set<string>();
  for (let at: Project | undefined = project; at; at = at.parent_id ? nodes.get(at.parent_id)?.project : undefined) {
    if (at.id === ancestorId) return true;
    if (seen.has(at.id)) return false;
    seen.add(at.id);
  }
  return false;
}

/** A project's sub-projects the person sees, in order (the project page lists them). */
export function subProjects(data: SyncData, projectId: string): Project[] {
  return [...data.projects.values()].filter((project) => listed(project) && project.parent_id === projectId).sort(byOrder);
}
