import { z } from 'zod';
import type { DomainCalls, JsonObject } from '../calls/domain-calls';
import { ToolFailure } from '../calls/tool-failure';
import type { Page } from './shapes';
import { defineTool } from './tool-definition';

/**
 * `search` and `fetch`, the pair deep-research assistants call (OpenAI's connector shape): ids
 * say their kind (`task:123`, `project:456`) so fetch knows where to look.
 */
const document = { id: z.string(), title: z.string(), url: z.string() };

function documentOf(kind: 'task' | 'project', object: JsonObject, origin = ''): { id: string; title: string; url: string } {
  const objectId = String(object['id']);
  const title = String(kind === 'task' ? object['content'] : object['name']);
  return { id: `${kind}:${objectId}`, title, url: `${origin}/api/v1/${kind}s/${objectId}` };
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
        calls.rest<Page>('GET', '/api/v1/tasks/filter', { query: { query: `search: ${args.query}`, limit: '50' } }),
        calls.rest<Page>('GET', '/api/v1/projects/search', { query: { query: args.query, limit: '50' } }),
      ]);
      return { results: [...projects.results.map((project) => documentOf('project', project, calls.origin)), ...tasks.results.map((task) => documentOf('task', task, calls.origin))] };
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
      const object = await fetchKind(calls, kind, objectId);
      const text = kind === 'task' ? [object['content'], object['description']].filter((part) => typeof part === 'string' && part !== '').join('\n\n') : String(object['name']);
      return { ...documentOf(kind, object, calls.origin), text, metadata: object };
    },
});

export const SEARCH_TOOLS = [search, fetch];

function fetchKind(calls: DomainCalls, kind: 'task' | 'project', objectId: string): Promise<JsonObject> {
  if (!/^[0-9A-Za-z_-]+$/.test(objectId)) throw new ToolFailure('INVALID_ARGUMENT_VALUE', 'Malformed id');
  return calls.rest('GET', `/api/v1/${kind}s/${encodeURIComponent(objectId)}`);
}
