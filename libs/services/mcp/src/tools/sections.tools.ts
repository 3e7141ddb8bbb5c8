import { z } from 'zod';
import { apiObjects, asObjects, eachInOrder, cursor, id, limit, pageQuery } from './shapes';
import { defineTool } from './tool-definition';

export const addSections = defineTool({
  name: 'add-sections',
  title: 'Add sections',
  description: 'Adds sections to projects.',
  input: { sections: z.array(z.object({ name: z.string().min(1).max(120), projectId: id })).min(1).max(25) },
  output: { sections: apiObjects },
  run: async (calls, { sections }) => ({ sections: await eachInOrder(sections, (section) => calls.rest('sections.create', { body: { name: section.name, project_id: section.projectId } })) }),
});

export const updateSections = defineTool({
  name: 'update-sections',
  title: 'Update sections',
  description: 'Renames sections.',
  input: { sections: z.array(z.object({ id, name: z.string().min(1).max(120) })).min(1).max(25) },
  output: { sections: apiObjects },
  run: async (calls, { sections }) => ({ sections: await eachInOrder(sections, (section) => calls.rest('sections.update', { params: { id: section.id }, body: { name: section.name } })) }),
});

export const findSections = defineTool({
  name: 'find-sections',
  title: 'Find sections',
  description: 'The sections of a project, or those whose name contains searchText.',
  readOnly: true,
  input: { projectId: id.optional(), searchText: z.string().min(1).max(120).optional(), limit, cursor },
  output: { sections: apiObjects, nextCursor: z.string().nullable() },
  async run(calls, args) {
    const page = args.searchText
      ? await calls.rest('sections.search', { query: { query: args.searchText, project_id: args.projectId, ...pageQuery(args) } })
      : await calls.rest('sections.list', { query: { project_id: args.projectId, ...pageQuery(args) } });
    return { sections: asObjects(page.results), nextCursor: page.next_cursor };
  },
});

export const SECTION_TOOLS = [addSections, updateSections, findSections];
