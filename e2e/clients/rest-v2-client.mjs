// Drives the unmodified @doist/todoist-api-typescript 3.0.3 (REST v2: string ids, runtypes
// validation of every response, update* returning the validated object) through tasks, projects,
// sections, personal and shared labels and comments, and prints what it saw as one JSON line.
// A step the client rejects is reported as {error, status} instead of aborting.
// Env: DOABLE_URL (origin), DOABLE_TOKEN, DOABLE_OTHER_TOKEN (a second account).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { TodoistApi } = require('todoist-api-ts-v3');

const url = process.env.DOABLE_URL;
const api = new TodoistApi(process.env.DOABLE_TOKEN, url);
const other = new TodoistApi(process.env.DOABLE_OTHER_TOKEN, url);
const stranger = new TodoistApi('0000000000000000000000000000000000000000', url);
const report = {};

async function step(name, fn) {
  try {
    report[name] = await fn();
  } catch (error) {
    report[name] = { error: `${error?.constructor?.name}: ${error?.message}`, status: error?.httpStatusCode ?? null };
  }
}
async function failure(fn) {
  try {
    await fn();
    return 'no error';
  } catch (error) {
    return { error: error?.constructor?.name, status: error?.httpStatusCode ?? null };
  }
}
const names = (list) => list.map((entity) => entity.name ?? entity.content).sort();
const isId = (value) => typeof value === 'string' && value.length > 0;
const ctx = {};

await step('projects', async () => {
  const before = await api.getProjects();
  const project = await api.addProject({ name: 'V2 project', color: 'berry_red', isFavorite: true, viewStyle: 'board' });
  const child = await api.addProject({ name: 'V2 child', parentId: project.id });
  ctx.project = project;
  const fetched = await api.getProject(project.id);
  const updated = await api.updateProject(project.id, { name: 'V2 project (renamed)', isFavorite: false, color: 'blue' });
  const collaborators = await api.getProjectCollaborators(project.id);
  const all = await api.getProjects();
  return {
    before: names(before),
    inbox: before.find((p) => p.isInboxProject)?.name ?? null,
    added: { id: isId(project.id), name: project.name, color: project.color, isFavorite: project.isFavorite, viewStyle: project.viewStyle, parentId: project.parentId ?? null },
    child: { parentMatches: child.parentId === project.id },
    fetched: fetched.id === project.id,
    updated: { name: updated.name, isFavorite: updated.isFavorite, color: updated.color },
    collaborators: collaborators.length,
    all: names(all),
  };
});

await step('sections', async () => {
  const section = await api.addSection({ name: 'V2 section', projectId: ctx.project.id });
  ctx.section = section;
  const listed = await api.getSections(ctx.project.id);
  const fetched = await api.getSection(section.id);
  const updated = await api.updateSection(section.id, { name: 'V2 section (renamed)' });
  return { id: isId(section.id), projectMatches: section.projectId === ctx.project.id, listed: names(listed), fetched: fetched.name, updated: updated.name };
});

await step('labels', async () => {
  const label = await api.addLabel({ name: 'v2label', color: 'green', isFavorite: true });
  ctx.label = label;
  const listed = await api.getLabels();
  const fetched = await api.getLabel(label.id);
  const updated = await api.updateLabel(label.id, { name: 'v2label-renamed', isFavorite: false, order: 3 });
  ctx.labelName = updated.name;
  return { id: isId(label.id), color: label.color, isFavorite: label.isFavorite, listed: names(listed), fetched: fetched.name, updated: { name: updated.name, isFavorite: updated.isFavorite, order: updated.order } };
});

await step('tasks', async () => {
  const parent = await api.addTask({
    content: 'V2 parent',
    description: 'about it',
    projectId: ctx.project.id,
    sectionId: ctx.section.id,
    labels: [ctx.labelName],
    priority: 4,
    dueString: 'tomorrow at 9am',
    duration: 30,
    durationUnit: 'minute',
  });
  const dated = await api.addTask({ content: 'V2 dated', projectId: ctx.project.id, dueDate: '2030-01-15', duration: 2, durationUnit: 'day' });
  const timed = await api.addTask({ content: 'V2 timed', projectId: ctx.project.id, parentId: parent.id, dueDatetime: '2030-01-15T10:00:00Z' });
  const inbox = await api.addTask({ content: 'V2 inbox', labels: ['adhoc'] });
  ctx.parent = parent;
  ctx.inbox = inbox;
  const fetched = await api.getTask(parent.id);
  const byProject = await api.getTasks({ projectId: ctx.project.id });
  const bySection = await api.getTasks({ sectionId: ctx.section.id });
  const byLabel = await api.getTasks({ label: ctx.labelName });
  const byIds = await api.getTasks({ ids: [dated.id, timed.id] });
  const byFilter = await api.getTasks({ filter: 'p1 | @adhoc' });
  const all = await api.getTasks();
  const updated = await api.updateTask(dated.id, { content: 'V2 dated (edited)', priority: 2, dueString: 'no date' });
  const relabelled = await api.updateTask(parent.id, { labels: [], dueDatetime: '2030-04-01T08:30:00Z', duration: 1, durationUnit: 'day' });
  const german = await api.addTask({ content: 'V2 german', dueString: 'morgen', dueLang: 'de', order: 7 });
  await api.deleteTask(german.id);
  const closed = await api.closeTask(dated.id);
  const openAfterClose = (await api.getTasks({ projectId: ctx.project.id })).map((t) => t.content).sort();
  const reopened = await api.reopenTask(dated.id);
  const afterReopen = await api.getTask(dated.id);
  const deleted = await api.deleteTask(timed.id);
  const afterDelete = await failure(() => api.getTask(timed.id));
  return {
    parent: {
      id: isId(parent.id),
      content: parent.content,
      description: parent.description,
      sectionMatches: parent.sectionId === ctx.section.id,
      labels: parent.labels,
      priority: parent.priority,
      due: { isRecurring: parent.due?.isRecurring, string: parent.due?.string, hasDatetime: typeof parent.due?.datetime === 'string' },
      duration: parent.duration,
      parentId: parent.parentId ?? null,
      isCompleted: parent.isCompleted,
      creatorId: isId(parent.creatorId),
    },
    dated: { date: dated.due?.date, datetime: dated.due?.datetime ?? null, duration: dated.duration, sectionId: dated.sectionId ?? null },
    timed: { date: timed.due?.date, datetime: timed.due?.datetime, parentMatches: timed.parentId === parent.id, duration: timed.duration ?? null },
    inbox: { projectIsInbox: inbox.projectId !== ctx.project.id, labels: inbox.labels },
    fetched: fetched.content,
    byProject: names(byProject),
    bySection: names(bySection),
    byLabel: names(byLabel),
    byIds: names(byIds),
    byFilter: names(byFilter),
    all: names(all),
    updated: { content: updated.content, priority: updated.priority, due: updated.due ?? null, duration: updated.duration },
    relabelled: { labels: relabelled.labels, due: relabelled.due, duration: relabelled.duration },
    german: { lang: german.due?.lang, string: german.due?.string, hasDate: Boolean(german.due?.date), order: german.order },
    closed,
    openAfterClose,
    reopened,
    afterReopen: afterReopen.isCompleted,
    deleted,
    afterDelete,
  };
});

await step('quickAdd', async () => {
  const task = await api.quickAddTask({ text: 'V2 quick p1 tomorrow @quicklabel' });
  return { id: isId(task.id), content: task.content, priority: task.priority, labels: task.labels, hasDue: Boolean(task.due?.date) };
});

await step('sharedLabels', async () => {
  const all = await api.getSharedLabels();
  const withoutPersonal = await api.getSharedLabels({ omitPersonal: true });
  const renamed = await api.renameSharedLabel({ name: 'adhoc', newName: 'adhoc-renamed' });
  const inboxAfterRename = (await api.getTask(ctx.inbox.id)).labels;
  const removed = await api.removeSharedLabel({ name: 'adhoc-renamed' });
  const inboxAfterRemove = (await api.getTask(ctx.inbox.id)).labels;
  return { all: [...all].sort(), withoutPersonal: [...withoutPersonal].sort(), renamed: renamed ?? null, inboxAfterRename, removed: removed ?? null, inboxAfterRemove, after: [...(await api.getSharedLabels())].sort() };
});

await step('comments', async () => {
  const attachment = { fileName: 'a.txt', fileUrl: 'https://files.example.test/a.txt', fileType: 'text/plain', resourceType: 'file' };
  const onTask = await api.addComment({ taskId: ctx.parent.id, content: 'V2 task comment', attachment });
  const onProject = await api.addComment({ projectId: ctx.project.id, content: 'V2 project comment' });
  const taskComments = await api.getComments({ taskId: ctx.parent.id });
  const projectComments = await api.getComments({ projectId: ctx.project.id });
  const fetched = await api.getComment(onTask.id);
  const updated = await api.updateComment(onProject.id, { content: 'V2 project comment (edited)' });
  const deleted = await api.deleteComment(onProject.id);
  const afterDelete = await failure(() => api.getComment(onProject.id));
  const task = await api.getTask(ctx.parent.id);
  return {
    onTask: { id: isId(onTask.id), taskMatches: onTask.taskId === ctx.parent.id, projectId: onTask.projectId ?? null, attachment: onTask.attachment },
    onProject: { projectMatches: onProject.projectId === ctx.project.id, taskId: onProject.taskId ?? null, attachment: onProject.attachment ?? null },
    taskComments: taskComments.map((c) => c.content),
    projectComments: projectComments.map((c) => c.content),
    fetched: fetched.content,
    updated: updated.content,
    deleted,
    afterDelete,
    commentCount: task.commentCount,
  };
});

await step('idempotency', async () => {
  const requestId = crypto.randomUUID();
  const first = await api.addTask({ content: 'V2 once' }, requestId);
  const replay = await api.addTask({ content: 'V2 once' }, requestId);
  const found = await api.getTasks({ filter: 'search: V2 once' });
  return { sameId: first.id === replay.id, copies: found.length };
});

await step('errors', async () => {
  const theirs = await other.addTask({ content: 'Not yours' });
  const theirProject = await other.addProject({ name: 'Not yours either' });
  return {
    otherUsersProject: await failure(() => api.getProject(theirProject.id)),
    otherUsersComments: await failure(() => api.getComments({ taskId: theirs.id })),
    updateOtherUsers: await failure(() => api.updateTask(theirs.id, { content: 'mine now' })),
    unknown: await failure(() => api.getTask('6X7rM8997g3RQmvh')),
    otherUsers: await failure(() => api.getTask(theirs.id)),
    badToken: await failure(() => stranger.getProjects()),
  };
});

await step('cleanup', async () => {
  const label = await api.deleteLabel(ctx.label.id);
  const section = await api.deleteSection(ctx.section.id);
  const project = await api.deleteProject(ctx.project.id);
  return {
    deleted: [label, section, project],
    labelGone: await failure(() => api.getLabel(ctx.label.id)),
    sectionGone: await failure(() => api.getSection(ctx.section.id)),
    projectGone: await failure(() => api.getProject(ctx.project.id)),
    projects: names(await api.getProjects()),
  };
});

process.stdout.write(`${JSON.stringify(report)}\n`);
