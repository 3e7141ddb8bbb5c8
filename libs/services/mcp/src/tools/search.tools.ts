import type { ApiV1Response } from '@doable/contracts-rest';
import { z } from 'zod';
import type { DomainCalls } from '../calls/domain-calls';
import { ToolFailure } from '../calls/tool-failure';
import { defineTool } from './tool-definition';

/**
 * `search` and `fetch`, the pair deep-research assistants call (OpenAI's connector shape): ids
 * say their kind (`task:123`, `project:456`) so fetch knows where to look.
 */
const document = { id: z.string(), title: z.string(), url: z.string() };

/** A task or a project, as api/v1 REST answers it, with its kind. */
type Found = { readonly kind: 'task'; readonly object: ApiV1Response<'tasks.get'> } | { readonly kind: 'project'; readonly object: ApiV1Response<'projects.get'> };

function documentOf({ kind, object }: Found, origin = ''): { id: string; title: string; url: string } {
  const title = kind === 'task' ? object.content : object.name;
  return { id: `${kind}:${object.id}`, title, url: `${origin}/api/v1/${kind}s/${object.id}` };
}

export const search = defineTool({
    name: 'search',
    title: 'Search',
    description: 'Finds active tasks and projects whose text contains the query.',
    readOnly: true,
    input: { query: z.string().min(1).max(500) },
    output: { results: z.array(z.object(document)) },
    async run(calls, args) {
      const [tasks, projects] = await Promise.all([
        calls.rest('tasks.filter', { query: { query: `search: ${args.query}`, limit: '50' } }),
        calls.rest('projects.search', { query: { query: args.query, limit: '50' } }),
      ]);
      return {
        results: [
          ...projects.results.map((project) => documentOf({ kind: 'project', object: project }, calls.origin)),
          ...tasks.results.map((task) => documentOf({ kind: 'task', object: task }, calls.origin)),
        ],
      };
    },
});

export const fetch = defineTool({
    name: 'fetch',
    title: 'Fetch',
    description: 'The whole of a search result by its id (task:... or project:...).',
    readOnly: true,
    input: { id: z.string().regex(/^(task|project):[0-9A-Za-z_-]+$/) },
    output: { ...document, text: z.string(), metadata: z.object({}).passthrough() },
    async run(calls, args) {
      const [kind, objectId] = args.id.split(':') as ['task' | 'project', string];
      const found = await fetchKind(calls, kind, objectId);
      const text = found.kind === 'task' ? [found.object.content, found.object.description].filter((part) => part !== '').join('\n\n') : found.object.name;
      return { ...documentOf(found, calls.origin), text, metadata: found.object };
    },
});

export const SEARCH_TOOLS = [search, fetch];

async function fetchKind(calls: DomainCalls, kind: 'task' | 'project', objectId: string): Promise<Found> {
  if (!/^[0-9A-Za-z_-]+$/.test(objectId)) throw new ToolFailure('INVALID_ARGUMENT_VALUE', 'Malformed id');
  const params = { id: objectId };
  return kind === 'task' ? { kind, object: await calls.rest('tasks.get', { params }) } : { kind, object: await calls.rest('projects.get', { params }) };
}
