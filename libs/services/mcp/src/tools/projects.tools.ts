import { z } from 'zod';
import type { JsonObject } from '../calls/domain-calls';
import { apiObject, apiObjects, asObjects, eachInOrder, cursor, id, limit, pageQuery } from './shapes';
import { defineTool } from './tool-definition';

const projectFields = {
  color: z.string().max(32).optional().describe('A colour name (berry_red, blue, ...)'),
  isFavorite: z.boolean().optional(),
  viewStyle: z.enum(['list', 'board', 'calendar']).optional(),
};

function projectBody(project: { name?: string; color?: string; isFavorite?: boolean; viewStyle?: string; parentId?: string }): JsonObject {
  const body: JsonObject = { name: project.name, color: project.color, is_favorite: project.isFavorite, view_style: project.viewStyle, parent_id: project.parentId };
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
}

export const addProjects = defineTool({
  name: 'add-projects',
  title: 'Add projects',
  description: 'Adds one or more projects (optionally under a parent project).',
  input: { projects: z.array(z.object({ name: z.string().min(1).max(120), parentId: id.optional(), ...projectFields })).min(1).max(25) },
  output: { projects: apiObjects },
  run: async (calls, { projects }) => ({ projects: await eachInOrder(projects, (project) => calls.rest('projects.create', { body: projectBody(project) })) }),
});

export const updateProjects = defineTool({
  name: 'update-projects',
  title: 'Update projects',
  description: 'Renames projects or changes their colour, favourite mark or view style.',
  input: { projects: z.array(z.object({ id, name: z.string().min(1).max(120).optional(), ...projectFields })).min(1).max(25) },
  output: { projects: apiObjects },
  run: async (calls, { projects }) => ({ projects: await eachInOrder(projects, (project) => calls.rest('projects.update', { params: { id: project.id }, body: projectBody(project) })) }),
});

export const findProjects = defineTool({
  name: 'find-projects',
  title: 'Find projects',
  description: 'Active projects, all or those whose name contains searchText.',
  readOnly: true,
  input: { searchText: z.string().min(1).max(120).optional(), limit, cursor },
  output: { projects: apiObjects, nextCursor: z.string().nullable() },
  async run(calls, args) {
    const page = args.searchText
      ? await calls.rest('projects.search', { query: { query: args.searchText, ...pageQuery(args) } })
      : await calls.rest('projects.list', { query: pageQuery(args) });
    return { projects: asObjects(page.results), nextCursor: page.next_cursor };
  },
});

export const projectMove = defineTool({
  name: 'project-move',
  title: 'Move a project',
  description: 'Moves a project under another project (parentId), to the top level (parentId null), into a workspace or back to personal.',
  input: { id, parentId: id.nullish(), workspaceId: id.optional(), toPersonal: z.boolean().optional() },
  output: { project: z.object({ id: z.string() }).passthrough() },
  async run(calls, args) {
    if (args.workspaceId) await calls.rest('projects.move_to_workspace', { body: { project_id: args.id, workspace_id: args.workspaceId } });
    else if (args.toPersonal) await calls.rest('projects.move_to_personal', { body: { project_id: args.id } });
    else await calls.syncAll([{ type: 'project_move', args: { id: args.id, parent_id: args.parentId ?? null } }]);
    return { project: await calls.rest('projects.get', { params: { id: args.id } }) };
  },
});

export const projectManagement = defineTool({
  name: 'project-management',
  title: 'Archive or unarchive a project',
  description: 'Archives a project (it leaves the active lists with its tasks, which stay as they are) or brings an archived one back.',
  input: { action: z.enum(['archive', 'unarchive']), projectId: id },
  output: { project: apiObject, success: z.boolean() },
  run: async (calls, args) => ({ project: await calls.rest(args.action === 'archive' ? 'projects.archive' : 'projects.unarchive', { params: { id: args.projectId } }), success: true }),
});

export const PROJECT_TOOLS = [addProjects, updateProjects, findProjects, projectMove, projectManagement];
