import { z } from 'zod';
import type { JsonObject } from '../calls/domain-calls';
import { apiObjects, id } from './shapes';
import { addThroughSync, readAll, readByIds } from './synced';
import { defineTool } from './tool-definition';

const filterFields = { color: z.string().max(32).optional(), isFavorite: z.boolean().optional() };

function filterArgs(filter: { name?: string; query?: string; color?: string; isFavorite?: boolean }): JsonObject {
  return Object.fromEntries(Object.entries({ name: filter.name, query: filter.query, color: filter.color, is_favorite: filter.isFavorite }).filter(([, value]) => value !== undefined));
}

export const addFilters = defineTool({
  name: 'add-filters',
  title: 'Add filters',
  description: 'Adds saved filters (a name and a query in the filter language, e.g. "today & p1").',
  input: { filters: z.array(z.object({ name: z.string().min(1).max(128), query: z.string().min(1).max(1024), ...filterFields })).min(1).max(25) },
  output: { filters: apiObjects },
  run: async (calls, { filters }) => ({ filters: await addThroughSync(calls, 'filters', 'filter_add', filters.map(filterArgs)) }),
});

export const updateFilters = defineTool({
  name: 'update-filters',
  title: 'Update filters',
  description: 'Changes saved filters: name, query, colour, favourite mark.',
  input: { filters: z.array(z.object({ id, name: z.string().min(1).max(128).optional(), query: z.string().min(1).max(1024).optional(), ...filterFields })).min(1).max(25) },
  output: { filters: apiObjects },
  async run(calls, { filters }) {
    await calls.syncAll(filters.map((filter) => ({ type: 'filter_update', args: { id: filter.id, ...filterArgs(filter) } })));
    return { filters: await readByIds(calls, 'filters', filters.map((filter) => filter.id)) };
  },
});

export const findFilters = defineTool({
  name: 'find-filters',
  title: 'Find filters',
  description: 'Saved filters, all or those whose name contains searchText.',
  readOnly: true,
  input: { searchText: z.string().min(1).max(128).optional() },
  output: { filters: apiObjects },
  async run(calls, args) {
    const needle = args.searchText?.toLowerCase();
    const filters = await readAll(calls, 'filters');
    return { filters: needle ? filters.filter((filter) => String(filter['name']).toLowerCase().includes(needle)) : filters };
  },
});

export const FILTER_TOOLS = [addFilters, updateFilters, findFilters];
