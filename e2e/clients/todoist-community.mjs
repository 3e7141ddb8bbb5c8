// Drives the unmodified community client `todoist@1.1.0` (form-encoded, one command per
// request, reads created objects from the write response) against a Doable server and prints
// what it saw as one JSON line. Env: DOABLE_SYNC_ENDPOINT (e.g. http://host:port/sync/v9,
// .../api/v1 or .../sync/v8), DOABLE_TOKEN (40 hex characters: the client refuses anything else).
// A task names its labels by id on v8 and by name on v9 and v1.
import { createRequire } from 'node:module';

const { Todoist } = createRequire(import.meta.url)('todoist');
const todoist = Todoist(process.env.DOABLE_TOKEN, { endpoint: process.env.DOABLE_SYNC_ENDPOINT, resourceTypes: ['all'], autocommit: false });

await todoist.sync();
const report = { inbox: todoist.projects.get().map((project) => project.name) };

const project = await todoist.projects.add({ name: 'Community project' });
const task = await todoist.items.add({ content: 'Community task', project_id: project.id });
report.added = { project: project?.name ?? null, task: task?.content ?? null, sameProject: task?.project_id === project?.id };

await todoist.items.update({ id: task.id, content: 'Community task (edited)' });
await todoist.items.close({ id: task.id });
await todoist.sync();
report.afterClose = todoist.items.get().filter((item) => item.id === task.id).map((item) => item.checked);

const label = await todoist.labels.add({ name: 'community' });
const byId = process.env.DOABLE_SYNC_ENDPOINT.endsWith('/sync/v8');
const labelled = await todoist.items.add({ content: 'Labelled', labels: [byId ? label.id : label.name] });
const labelName = (ref) => (typeof ref === 'number' ? (todoist.labels.get().find((candidate) => candidate.id === ref)?.name ?? null) : ref);
report.labelled = { labels: labelled.labels.map(labelName), idType: typeof labelled.id };

const doomed = await todoist.items.add({ content: 'Short-lived' });
await todoist.items.delete({ id: doomed.id });
await todoist.sync();
report.afterDelete = todoist.items.get().some((item) => item.id === doomed.id);
report.projects = todoist.projects.get().map((project) => project.name).sort();

process.stdout.write(`${JSON.stringify(report)}\n`);
