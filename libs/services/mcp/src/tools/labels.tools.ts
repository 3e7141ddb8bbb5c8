import { z } from 'zod';
import type { JsonObject } from '../calls/domain-calls';
import { apiObjects, asObjects, eachInOrder, cursor, id, limit, pageQuery } from './shapes';
import { defineTool } from './tool-definition';

const labelFields = { color: z.string().max(32).optional(), isFavorite: z.boolean().optional() };

function labelBody(label: { name?: string; color?: string; isFavorite?: boolean }): JsonObject {
  return Object.fromEntries(Object.entries({ name: label.name, color: label.color, is_favorite: label.isFavorite }).filter(([, value]) => value !== undefined));
}

export const addLabels = defineTool({
  name: 'add-labels',
  title: 'Add labels',
  description: 'Adds personal labels.',
  input: { labels: z.array(z.object({ name: z.string().min(1).max(128), ...labelFields })).min(1).max(25) },
  output: { labels: apiObjects },
  run: async (calls, { labels }) => ({ labels: await eachInOrder(labels, (label) => calls.rest('labels.create', { body: labelBody(label) })) }),
});

export const updateLabels = defineTool({
  name: 'update-labels',
  title: 'Update labels',
  description: 'Renames labels or changes their colour or favourite mark.',
  input: { labels: z.array(z.object({ id, name: z.string().min(1).max(128).optional(), ...labelFields })).min(1).max(25) },
  output: { labels: apiObjects },
  run: async (calls, { labels }) => ({ labels: await eachInOrder(labels, (label) => calls.rest('labels.update', { params: { id: label.id }, body: labelBody(label) })) }),
});

export const findLabels = defineTool({
  name: 'find-labels',
  title: 'Find labels',
  description: 'Personal labels, all or those whose name contains searchText.',
  readOnly: true,
  input: { searchText: z.string().min(1).max(128).optional(), limit, cursor },
  output: { labels: apiObjects, nextCursor: z.string().nullable() },
  async run(calls, args) {
    const page = args.searchText
      ? await calls.rest('labels.search', { query: { query: args.searchText, ...pageQuery(args) } })
      : await calls.rest('labels.list', { query: pageQuery(args) });
    return { labels: asObjects(page.results), nextCursor: page.next_cursor };
  },
});

export const LABEL_TOOLS = [addLabels, updateLabels, findLabels];
