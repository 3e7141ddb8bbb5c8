import { z } from 'zod';
import { commandPerId } from './batch';
import { apiObjects, asObjects, batchOutcome, id, ids } from './shapes';
import { defineTool } from './tool-definition';

export const findProjectCollaborators = defineTool({
  name: 'find-project-collaborators',
  title: 'Find project collaborators',
  description: 'The people a shared project is shared with (whom its tasks can be assigned to).',
  readOnly: true,
  input: { projectId: id },
  output: { collaborators: apiObjects },
  async run(calls, args) {
    const page = await calls.rest('projects.collaborators', { params: { id: args.projectId }, query: { limit: '200' } });
    return { collaborators: asObjects(page.results) };
  },
});

export const manageAssignments = defineTool({
  name: 'manage-assignments',
  title: 'Manage assignments',
  description: 'Assigns tasks of a shared project to a collaborator (responsibleUser), or unassigns them.',
  input: { operation: z.enum(['assign', 'unassign']), taskIds: ids, responsibleUser: id.optional() },
  output: batchOutcome,
  run: (calls, args) =>
    commandPerId(calls, args.taskIds, (taskId) => ({ type: 'item_update', args: { id: taskId, responsible_uid: args.operation === 'assign' ? (args.responsibleUser ?? null) : null } })),
});

export const COLLABORATION_TOOLS = [findProjectCollaborators, manageAssignments];
