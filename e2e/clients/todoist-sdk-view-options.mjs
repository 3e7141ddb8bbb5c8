// Drives the unmodified official SDK (@doist/todoist-sdk 17, ESM) through saved view options and
// project view defaults against a Doable server, printing what it saw as one JSON line. Every
// response passes the SDK's own zod validation (live rows and tombstones are a discriminated
// union on is_deleted), so a shape it rejects fails this script (non-zero exit).
// Env: DOABLE_URL (base URL), DOABLE_TOKEN (API token).
import { TodoistApi, createCommand } from '@doist/todoist-sdk';

const api = new TodoistApi(process.env.DOABLE_TOKEN, { baseUrl: process.env.DOABLE_URL });
const report = {};

const start = await api.sync({ syncToken: '*', resourceTypes: ['view_options', 'project_view_options_defaults'] });
report.start = { viewOptions: start.viewOptions, defaults: start.projectViewOptionsDefaults };

const write = await api.sync({
  syncToken: start.syncToken,
  resourceTypes: ['view_options', 'project_view_options_defaults'],
  commands: [
    createCommand('project_add', { name: 'Views' }, 'views'),
    createCommand('view_options_set', {
      viewType: 'PROJECT',
      objectId: 'views',
      viewMode: 'BOARD',
      groupedBy: 'PRIORITY',
      sortedBy: 'DUE_DATE',
      sortOrder: 'DESC',
      showCompletedTasks: true,
      calendarSettings: { layout: 'MONTH', visibleDayCount: 7, color: 'LABEL' },
      propertySettings: { order: ['due', 'labels'], properties: { due: { is_hidden: true, width: 120 } } },
    }),
    createCommand('view_options_set', { viewType: 'TODAY', viewMode: 'LIST' }),
    createCommand('project_view_options_defaults_set', { projectId: 'views', viewMode: 'CALENDAR', filteredBy: 'p1', calendarSettings: { layout: 'WEEK' } }),
  ],
});
const projectId = write.tempIdMapping.views;
const sortByType = (options) => [...(options ?? [])].sort((a, b) => a.viewType.localeCompare(b.viewType));
report.write = {
  statuses: Object.values(write.syncStatus ?? {}),
  viewOptions: sortByType(write.viewOptions).map((options) => ({ ...options, objectId: options.objectId === projectId ? 'views' : options.objectId })),
  defaults: write.projectViewOptionsDefaults?.map((defaults) => ({ ...defaults, projectId: defaults.projectId === projectId ? 'views' : defaults.projectId })),
};

// The SDK's own view-option calls: a merge of property settings, a read, a delete.
await api.setViewOptions({ viewType: 'PROJECT', objectId: projectId, propertySettings: { properties: { due: { width: null }, labels: { is_hidden: true } } } });
const saved = await api.getViewOptions();
report.merged = saved.find((options) => options.viewType === 'PROJECT')?.propertySettings;
await api.deleteViewOptions({ viewType: 'TODAY' });

const changes = await api.sync({
  syncToken: write.syncToken,
  resourceTypes: ['view_options', 'project_view_options_defaults'],
  commands: [createCommand('project_delete', { id: projectId })],
});
report.changes = {
  viewOptions: sortByType(changes.viewOptions).map((options) => ({ viewType: options.viewType, isDeleted: options.isDeleted ?? false })),
  defaults: changes.projectViewOptionsDefaults?.map((defaults) => ({ project: defaults.projectId === projectId, isDeleted: defaults.isDeleted })),
};
report.after = (await api.getViewOptions()).map((options) => options.viewType);

process.stdout.write(`${JSON.stringify(report)}\n`);
