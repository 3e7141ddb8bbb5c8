// Drives the unmodified official SDK (@doist/todoist-sdk 17, ESM) through the workspace calls
// it has, as a member of a workspace: getWorkspaces, getWorkspaceUsers, getFolders, getFolder and
// joinProject. Every response passes the SDK's zod validation (WorkspaceSchema, WorkspaceUser,
// FolderSchema, WorkspaceProject, TaskSchema, CollaboratorSchema...). Prints one JSON line.
// Env: DOABLE_URL, DOABLE_TOKEN (a member of the workspace), DOABLE_WORKSPACE (its id),
// DOABLE_PROJECT (a project of the workspace the member has not joined yet).
import { TodoistApi } from '@doist/todoist-sdk';

const env = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};
const api = new TodoistApi(env('DOABLE_TOKEN'), { baseUrl: env('DOABLE_URL') });
const workspaceId = env('DOABLE_WORKSPACE');

const workspaces = await api.getWorkspaces();
const users = await api.getWorkspaceUsers({ workspaceId });
const folders = await api.getFolders({ workspaceId });
const folder = await api.getFolder(folders.results[0].id);
const joined = await api.joinProject(env('DOABLE_PROJECT'));

process.stdout.write(
  `${JSON.stringify({
    workspaces: workspaces.map((workspace) => ({ id: workspace.id, name: workspace.name, plan: workspace.plan, role: workspace.role })),
    users: users.workspaceUsers.map((user) => user.userId).sort(),
    folders: folders.results.map((each) => each.name),
    folder: folder.name,
    joined: { id: joined.project.id, workspaceId: joined.project.workspaceId },
  })}\n`,
);
