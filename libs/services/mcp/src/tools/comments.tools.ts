import { z } from 'zod';
import type { JsonObject } from '../calls/domain-calls';
import { ToolFailure } from '../calls/tool-failure';
import { apiObjects, asObjects, eachInOrder, cursor, id, limit, pageQuery } from './shapes';
import { defineTool } from './tool-definition';

export const addComments = defineTool({
  name: 'add-comments',
  title: 'Add comments',
  description: 'Adds comments to tasks (taskId) or projects (projectId).',
  input: { comments: z.array(z.object({ content: z.string().min(1).max(15000), taskId: id.optional(), projectId: id.optional() })).min(1).max(25) },
  output: { comments: apiObjects },
  async run(calls, { comments }) {
    const created: JsonObject[] = [];
    for (const comment of comments) {
      if ((comment.taskId === undefined) === (comment.projectId === undefined)) throw new ToolFailure('INVALID_ARGUMENT_VALUE', 'Each comment needs exactly one of taskId and projectId');
      created.push(await calls.rest('comments.create', { body: { content: comment.content, ...(comment.taskId ? { task_id: comment.taskId } : { project_id: comment.projectId }) } }));
    }
    return { comments: asObjects(created) };
  },
});

export const updateComments = defineTool({
  name: 'update-comments',
  title: 'Update comments',
  description: 'Changes the text of comments.',
  input: { comments: z.array(z.object({ id, content: z.string().min(1).max(15000) })).min(1).max(25) },
  output: { comments: apiObjects },
  run: async (calls, { comments }) => ({ comments: await eachInOrder(comments, (comment) => calls.rest('comments.update', { params: { id: comment.id }, body: { content: comment.content } })) }),
});

export const findComments = defineTool({
  name: 'find-comments',
  title: 'Find comments',
  description: 'The comments of a task or of a project.',
  readOnly: true,
  input: { taskId: id.optional(), projectId: id.optional(), limit, cursor },
  output: { comments: apiObjects, nextCursor: z.string().nullable() },
  async run(calls, args) {
    if ((args.taskId === undefined) === (args.projectId === undefined)) throw new ToolFailure('INVALID_ARGUMENT_VALUE', 'Give exactly one of taskId and projectId');
    const page = await calls.rest('comments.list', { query: { task_id: args.taskId, project_id: args.projectId, ...pageQuery(args) } });
    return { comments: asObjects(page.results), nextCursor: page.next_cursor };
  },
});

export const COMMENT_TOOLS = [addComments, updateComments, findComments];
