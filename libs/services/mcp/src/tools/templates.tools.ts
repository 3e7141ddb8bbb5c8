import { SyncSubjects } from '@doable/contracts-sync';
import { z } from 'zod';
import { templateFileReply, templateImportReply } from '../calls/edge-replies';
import { id } from './shapes';
import { defineTool } from './tool-definition';

export const exportProjectTemplate = defineTool({
  name: 'export-project-template',
  title: 'Export a project as a template',
  description: 'A project as a template CSV (its sections and tasks), to keep or import elsewhere.',
  readOnly: true,
  input: { projectId: id },
  output: { projectId: z.string(), csv: z.string() },
  run: async (calls, args) => ({ projectId: args.projectId, csv: await calls.edge(SyncSubjects.templates, templateFileReply, 'GET', '/api/v1/templates/file', { query: { project_id: args.projectId } }) }),
});

export const importProjectTemplate = defineTool({
  name: 'import-project-template',
  title: 'Import a template into a project',
  description: 'Adds the sections and tasks of a template CSV to a project.',
  input: { projectId: id, csv: z.string().min(1).max(1_000_000) },
  output: { projectId: z.string(), tasks: z.number(), sections: z.number() },
  async run(calls, args) {
    const answer = await calls.edge(SyncSubjects.templates, templateImportReply, 'POST', '/api/v1/templates/import_into_project_from_file', {
      body: { project_id: args.projectId, file: args.csv },
    });
    return { projectId: args.projectId, tasks: answer.tasks?.length ?? 0, sections: answer.sections?.length ?? 0 };
  },
});

export const TEMPLATE_TOOLS = [exportProjectTemplate, importProjectTemplate];
