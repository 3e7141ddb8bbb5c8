import type { ApiV1Operation } from '@doable/contracts-rest';
import { z } from 'zod';
import type { DomainCalls, JsonObject } from '../calls/domain-calls';
import { ToolFailure } from '../calls/tool-failure';
import { id } from './shapes';
import { readByIds } from './synced';
import { defineTool } from './tool-definition';

const OBJECT_TYPES = ['task', 'project', 'section', 'comment', 'label', 'filter', 'reminder'] as const;
type ObjectType = (typeof OBJECT_TYPES)[number];

/** The api/v1 REST operations of each type; filters and reminders live only in the Sync API. */
const REST_OPERATIONS: Partial<Record<ObjectType, { readonly get: 'tasks.get' | 'projects.get' | 'sections.get' | 'comments.get' | 'labels.get'; readonly delete: ApiV1Operation }>> = {
  task: { get: 'tasks.get', delete: 'tasks.delete' },
  project: { get: 'projects.get', delete: 'projects.delete' },
  section: { get: 'sections.get', delete: 'sections.delete' },
  comment: { get: 'comments.get', delete: 'comments.delete' },
  label: { get: 'labels.get', delete: 'labels.delete' },
};
const SYNC_RESOURCES: Partial<Record<ObjectType, { resource: 'filters' | 'reminders'; deleteCommand: string; notFound: string }>> = {
  filter: { resource: 'filters', deleteCommand: 'filter_delete', notFound: 'FILTER_NOT_FOUND' },
  reminder: { resource: 'reminders', deleteCommand: 'reminder_delete', notFound: 'REMINDER_NOT_FOUND' },
};

async function fetchOne(calls: DomainCalls, type: ObjectType, objectId: string): Promise<{ id: string } & JsonObject> {
  const operations = REST_OPERATIONS[type];
  if (operations) return calls.rest(operations.get, { params: { id: objectId } });
  const synced = SYNC_RESOURCES[type]!;
  const [found] = await readByIds(calls, synced.resource, [objectId]);
  if (!found) throw new ToolFailure(synced.notFound, `No ${type} ${objectId}`);
  return found;
}

export const deleteObject = defineTool({
  name: 'delete-object',
  title: 'Delete an object',
  description: 'Deletes a task, project, section, comment, label, filter or reminder by id.',
  destructive: true,
  input: { type: z.enum(OBJECT_TYPES), id },
  output: { deleted: z.object({ type: z.string(), id: z.string() }) },
  async run(calls, args) {
    const operations = REST_OPERATIONS[args.type];
    if (operations) await calls.rest(operations.delete, { params: { id: args.id } });
    else await calls.syncAll([{ type: SYNC_RESOURCES[args.type]!.deleteCommand, args: { id: args.id } }]);
    return { deleted: { type: args.type, id: args.id } };
  },
});

export const fetchObject = defineTool({
  name: 'fetch-object',
  title: 'Fetch an object',
  description: 'One task, project, section, comment, label, filter or reminder by id, in full.',
  readOnly: true,
  input: { type: z.enum(OBJECT_TYPES), id },
  output: { type: z.string(), object: z.object({ id: z.string() }).passthrough() },
  run: async (calls, args) => ({ type: args.type, object: await fetchOne(calls, args.type, args.id) }),
});

const REORDER = {
  task: { command: 'item_reorder', list: 'items', order: 'child_order' },
  project: { command: 'project_reorder', list: 'projects', order: 'child_order' },
  section: { command: 'section_reorder', list: 'sections', order: 'section_order' },
} as const;

export const reorderObjects = defineTool({
  name: 'reorder-objects',
  title: 'Reorder objects',
  description: 'Puts sibling tasks, projects or sections in the order given (first id first).',
  input: { type: z.enum(['task', 'project', 'section']), ids: z.array(id).min(1).max(200) },
  output: { type: z.string(), ids: z.array(z.string()) },
  async run(calls, args) {
    const { command, list, order } = REORDER[args.type];
    await calls.syncAll([{ type: command, args: { [list]: args.ids.map((objectId, index) => ({ id: objectId, [order]: index + 1 })) } }]);
    return { type: args.type, ids: args.ids };
  },
});

export const OBJECT_TOOLS = [deleteObject, fetchObject, reorderObjects];
