// Drives the unmodified official SDK (@doist/todoist-sdk 17, ESM) against a Doable server and
// prints what it saw as one JSON line. Every response passes through the SDK's own zod
// validation, so any shape it rejects makes this script fail (non-zero exit, message on stderr).
// Env: DOABLE_URL (base URL), DOABLE_TOKEN (API token).
import { TodoistApi, createCommand } from '@doist/todoist-sdk';

const api = new TodoistApi(process.env.DOABLE_TOKEN, { baseUrl: process.env.DOABLE_URL });
const report = {};

const full = await api.sync({ syncToken: '*', resourceTypes: ['all'] });
report.full = { fullSync: full.fullSync, user: full.user?.email, projects: full.projects?.map((project) => project.name), items: full.items?.length ?? 0, labels: full.labels?.length, filters: full.filters?.length };

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

// Personal labels and filters, through the SDK's own command argument types (camelCase, sent snake_case).
const organise = await api.sync({
  syncToken: edit.syncToken,
  resourceTypes: ['labels', 'filters', 'items'],
  commands: [
    createCommand('label_add', { name: 'sdk-label', color: 'berry_red', isFavorite: true }, 'sdklabel'),
    createCommand('filter_add', { name: 'SDK filter', query: '@sdk-label & p1', color: 'blue' }, 'sdkfilter'),
    createCommand('item_update', { id: taskId, labels: ['sdk-label'] }),
  ],
});
const labelId = organise.tempIdMapping.sdklabel;
const filterId = organise.tempIdMapping.sdkfilter;
report.organise = {
  statuses: Object.values(organise.syncStatus ?? {}),
  labels: organise.labels?.map((label) => ({ name: label.name, color: label.color, isFavorite: label.isFavorite, isDeleted: label.isDeleted })),
  filters: organise.filters?.map((filter) => ({ name: filter.name, query: filter.query, color: filter.color, isFrozen: filter.isFrozen, isDeleted: filter.isDeleted })),
  taskLabels: organise.items?.find((item) => item.id === taskId)?.labels,
};

const relabel = await api.sync({
  syncToken: organise.syncToken,
  resourceTypes: ['labels', 'filters', 'items'],
  commands: [
    createCommand('label_update', { id: labelId, name: 'sdk-renamed' }),
    createCommand('label_update_orders', { idOrderMapping: { [labelId]: 5 } }),
    createCommand('filter_update', { id: filterId, query: '@sdk-renamed' }),
    createCommand('filter_update_orders', { idOrderMapping: { [filterId]: 3 } }),
  ],
});
report.relabel = {
  statuses: Object.values(relabel.syncStatus ?? {}),
  labels: relabel.labels?.map((label) => ({ name: label.name, order: label.order })),
  filters: relabel.filters?.map((filter) => ({ query: filter.query, itemOrder: filter.itemOrder })),
  taskLabels: relabel.items?.find((item) => item.id === taskId)?.labels,
};

const cleanup = await api.sync({
  syncToken: relabel.syncToken,
  resourceTypes: ['labels', 'filters', 'items'],
  commands: [createCommand('label_delete', { id: labelId, cascade: 'all' }), createCommand('filter_delete', { id: filterId })],
});
report.cleanup = {
  statuses: Object.values(cleanup.syncStatus ?? {}),
  labels: cleanup.labels?.map((label) => ({ id: label.id === labelId, isDeleted: label.isDeleted })),
  filters: cleanup.filters?.map((filter) => ({ id: filter.id === filterId, isDeleted: filter.isDeleted })),
  taskLabels: cleanup.items?.find((item) => item.id === taskId)?.labels,
};

const quiet = await api.sync({ syncToken: cleanup.syncToken, resourceTypes: ['all'] });
report.quiet = { fullSync: quiet.fullSync, items: quiet.items?.length ?? 0, projects: quiet.projects?.length ?? 0, labels: quiet.labels?.length ?? 0, filters: quiet.filters?.length ?? 0 };

const refused = await api
  .sync({ commands: [createCommand('item_update', { id: '999999999', content: 'nope' })] })
  .then(() => 'accepted', (error) => error?.constructor?.name ?? 'error');
report.refused = refused;

process.stdout.write(`${JSON.stringify(report)}\n`);
