// Drives the unmodified official SDK (@doist/todoist-sdk 17, ESM) against a Doable server and
// prints what it saw as one JSON line. Every response passes through the SDK's own zod
// validation, so any shape it rejects makes this script fail (non-zero exit, message on stderr).
// Env: DOABLE_URL (base URL), DOABLE_TOKEN (API token).
import { TodoistApi, createCommand } from '@doist/todoist-sdk';

const api = new TodoistApi(process.env.DOABLE_TOKEN, { baseUrl: process.env.DOABLE_URL });
const report = {};

const full = await api.sync({ syncToken: '*', resourceTypes: ['all'] });
report.full = { fullSync: full.fullSync, user: full.user?.email, projects: full.projects?.map((project) => project.name), items: full.items?.length ?? 0 };

const write = await api.sync({
  syncToken: full.syncToken,
  resourceTypes: ['projects', 'items'],
  commands: [
    createCommand('project_add', { name: 'SDK project' }, 'sdkproject'),
    createCommand('item_add', { content: 'SDK task', projectId: 'sdkproject', priority: 4, due: { string: 'tomorrow' } }, 'sdktask'),
    createCommand('item_add', { content: 'SDK subtask', parentId: 'sdktask' }, 'sdksubtask'),
  ],
});
report.write = {
  statuses: Object.values(write.syncStatus ?? {}),
  mapped: Object.keys(write.tempIdMapping ?? {}).sort(),
  projects: write.projects?.map((project) => project.name),
  items: write.items?.map((item) => item.content).sort(),
  due: write.items?.find((item) => item.content === 'SDK task')?.due?.date ?? null,
};
const taskId = write.tempIdMapping.sdktask;

const edit = await api.sync({
  syncToken: write.syncToken,
  resourceTypes: ['items'],
  commands: [createCommand('item_update', { id: taskId, content: 'SDK task (edited)' }), createCommand('item_delete', { id: write.tempIdMapping.sdksubtask })],
});
report.edit = {
  statuses: Object.values(edit.syncStatus ?? {}),
  items: edit.items?.map((item) => ({ content: item.content, isDeleted: item.isDeleted })).sort((a, b) => a.content.localeCompare(b.content)),
};

const quiet = await api.sync({ syncToken: edit.syncToken, resourceTypes: ['all'] });
report.quiet = { fullSync: quiet.fullSync, items: quiet.items?.length ?? 0, projects: quiet.projects?.length ?? 0 };

const refused = await api
  .sync({ commands: [createCommand('item_update', { id: '999999999', content: 'nope' })] })
  .then(() => 'accepted', (error) => error?.constructor?.name ?? 'error');
report.refused = refused;

process.stdout.write(`${JSON.stringify(report)}\n`);
