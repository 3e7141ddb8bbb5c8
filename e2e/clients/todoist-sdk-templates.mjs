// Drives the unmodified official SDK (@doist/todoist-sdk 17, ESM) through templates and
// productivity stats and prints what it saw as one JSON line. importTemplateIntoProject and
// createProjectFromTemplate validate their answers with the SDK's own zod schemas (projects,
// sections, tasks, comments); getProductivityStats with ProductivityStatsSchema.
// Env: DOABLE_URL (base URL), DOABLE_TOKEN (API token), PROJECT_ID (a project to export).
import { TodoistApi } from '@doist/todoist-sdk';

const api = new TodoistApi(process.env.DOABLE_TOKEN, { baseUrl: process.env.DOABLE_URL });
const projectId = process.env.PROJECT_ID;

const file = await api.exportTemplateAsFile({ projectId });
const url = await api.exportTemplateAsUrl({ projectId });
const target = await api.addProject({ name: 'SDK template target' });
const imported = await api.importTemplateIntoProject({ projectId: target.id, file: Buffer.from(String(file), 'utf8'), fileName: 'template.csv' });
const created = await api.createProjectFromTemplate({ name: 'SDK template copy', file: Buffer.from(String(file), 'utf8'), fileName: 'template.csv' });
const stats = await api.getProductivityStats();
let fromId;
try {
  await api.importTemplateFromId({ projectId: target.id, templateId: 'nope' });
  fromId = 'ok';
} catch (error) {
  fromId = error.httpStatusCode ?? String(error);
}

console.log(
  JSON.stringify({
    file: String(file),
    url,
    imported: { status: imported.status, projects: imported.projects.map((p) => p.id), tasks: imported.tasks.map((t) => t.content), sections: imported.sections.map((s) => s.name), comments: imported.comments.length },
    created: { status: created.status, projectId: created.projectId, name: created.projects[0]?.name, tasks: created.tasks.length },
    stats: { completedCount: stats.completedCount, days: stats.daysItems.length, karma: stats.karma },
    fromId,
  }),
);
