// Drives the unmodified @doist/todoist-api-typescript 1.7.0 (REST v1: integer ids and colours,
// runtypes validation of every response) through tasks, projects, sections, labels and comments,
// and prints what it saw as one JSON line. A step the client rejects is reported as
// {error, status} instead of aborting, so the spec shows every failure at once.
// Env: DOABLE_URL (origin), DOABLE_TOKEN, DOABLE_OTHER_TOKEN (a second account).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { TodoistApi } = require('todoist-api-ts-v1');

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
const isInt = (value) => Number.isInteger(value);
const ctx = {};

await step('projects', async () => {
  const before = await api.getProjects();
  const project = await api.addProject({ name: 'V1 project', color: 31, favorite: true });
  const child = await api.addProject({ name: 'V1 child', parentId: project.id });
  ctx.project = project;
  const fetched = await api.getProject(project.id);
  const updated = await api.updateProject(project.id, { name: 'V1 project (renamed)', favorite: false });
  const after = await api.getProject(project.id);
  const collaborators = await api.getProjectCollaborators(project.id);
  const all = await api.getProjects();
  return {
    before: names(before),
    inbox: before.find((p) => p.inboxProject)?.name ?? null,
    added: { intId: isInt(project.id), name: project.name, color: project.color, favorite: project.favorite, hasParent: 'parentId' in project },
    child: { parentMatches: child.parentId === project.id },
    fetched: fetched.id === project.id,
    updated,
    after: { name: after.name, favorite: after.favorite },
    collaborators: collaborators.length,
    all: names(all),
  };
});

await step('sections', async () => {
  const section = await api.addSection({ name: 'V1 section', projectId: ctx.project.id });
  ctx.section = section;
  const listed = await api.getSections(ctx.project.id);
  const fetched = await api.getSection(section.id);
  const updated = await api.updateSection(section.id, { name: 'V1 section (renamed)' });
  const after = await api.getSection(section.id);
  return { intId: isInt(section.id), projectMatches: section.projectId === ctx.project.id, listed: names(listed), fetched: fetched.name, updated, after: after.name };
});

await step('labels', async () => {
  const label = await api.addLabel({ name: 'v1label', color: 30, favorite: true });
  ctx.label = label;
  const listed = await api.getLabels();
  const fetched = await api.getLabel(label.id);
  const updated = await api.updateLabel(label.id, { name: 'v1label-renamed', favorite: false });
  const after = await api.getLabel(label.id);
  return { intId: isInt(label.id), color: label.color, favorite: label.favorite, listed: names(listed), fetched: fetched.name, updated, after: { name: after.name, favorite: after.favorite } };
});

await step('tasks', async () => {
  const parent = await api.addTask({
    content: 'V1 parent',
    description: 'about it',
    projectId: ctx.project.id,
    sectionId: ctx.section.id,
    labelIds: [ctx.label.id],
    priority: 4,
    dueString: 'tomorrow',
  });
  const dated = await api.addTask({ content: 'V1 dated', projectId: ctx.project.id, dueDate: '2030-01-15' });
  const timed = await api.addTask({ content: 'V1 timed', projectId: ctx.project.id, parentId: parent.id, dueDatetime: '2030-01-15T10:00:00Z' });
  const inbox = await api.addTask({ content: 'V1 inbox' });
  ctx.parent = parent;
  ctx.inbox = inbox;
  const fetched = await api.getTask(parent.id);
  const byProject = await api.getTasks({ projectId: ctx.project.id });
  const bySection = await api.getTasks({ sectionId: ctx.section.id });
  const byLabel = await api.getTasks({ labelId: ctx.label.id });
  const byIds = await api.getTasks({ ids: [dated.id, timed.id] });
  const byFilter = await api.getTasks({ filter: 'p1' });
  const all = await api.getTasks();
  const updated = await api.updateTask(dated.id, { content: 'V1 dated (edited)', priority: 2, dueString: 'no date' });
  const afterUpdate = await api.getTask(dated.id);
  const relabelled = await api.updateTask(parent.id, { labelIds: [], dueDatetime: '2030-04-01T08:30:00Z' });
  const afterRelabel = await api.getTask(parent.id);
  const german = await api.addTask({ content: 'V1 german', dueString: 'morgen', dueLang: 'de', order: 7 });
  await api.deleteTask(german.id);
  const closed = await api.closeTask(dated.id);
  const openAfterClose = (await api.getTasks({ projectId: ctx.project.id })).map((t) => t.content).sort();
  const reopened = await api.reopenTask(dated.id);
  const afterReopen = await api.getTask(dated.id);
  const deleted = await api.deleteTask(timed.id);
  const afterDelete = await failure(() => api.getTask(timed.id));
  return {
    parent: {
      intId: isInt(parent.id),
      content: parent.content,
      description: parent.description,
      sectionMatches: parent.sectionId === ctx.section.id,
      labelIds: parent.labelIds.map((id) => id === ctx.label.id),
      priority: parent.priority,
      due: { recurring: parent.due?.recurring, string: parent.due?.string, hasDatetime: 'datetime' in (parent.due ?? {}) },
      parentId: 'parentId' in parent ? parent.parentId : 'absent',
      completed: parent.completed,
    },
    dated: { date: dated.due?.date, sectionId: dated.sectionId },
    timed: { date: timed.due?.date, datetime: timed.due?.datetime, parentMatches: timed.parentId === parent.id },
    inbox: { projectIsInbox: inbox.projectId !== ctx.project.id, sectionId: inbox.sectionId },
    fetched: fetched.content,
    byProject: names(byProject),
    bySection: names(bySection),
    byLabel: names(byLabel),
    byIds: names(byIds),
    byFilter: names(byFilter),
    all: names(all),
    updated,
    afterUpdate: { content: afterUpdate.content, priority: afterUpdate.priority, hasDue: 'due' in afterUpdate },
    relabelled,
    afterRelabel: { labelIds: afterRelabel.labelIds, due: afterRelabel.due },
    german: { string: german.due?.string, hasDate: Boolean(german.due?.date), order: german.order },
    closed,
    openAfterClose,
    reopened,
    afterReopen: afterReopen.completed,
    deleted,
    afterDelete,
  };
});

await step('quickAdd', async () => {
  const task = await api.quickAddTask({ text: 'V1 quick p1 tomorrow' });
  return { intId: isInt(task.id), content: task.content, priority: task.priority, hasDue: Boolean(task.due?.date) };
});

await step('comments', async () => {
  const attachment = { fileName: 'a.txt', fileUrl: 'https://files.example.test/a.txt', fileType: 'text/plain', resourceType: 'file' };
  const onTask = await api.addComment({ taskId: ctx.parent.id, content: 'V1 task comment', attachment });
  const onProject = await api.addComment({ projectId: ctx.project.id, content: 'V1 project comment' });
  const taskComments = await api.getComments({ taskId: ctx.parent.id });
  const projectComments = await api.getComments({ projectId: ctx.project.id });
  const fetched = await api.getComment(onTask.id);
  const updated = await api.updateComment(onProject.id, { content: 'V1 project comment (edited)' });
  const after = await api.getComment(onProject.id);
  const deleted = await api.deleteComment(onProject.id);
  const afterDelete = await failure(() => api.getComment(onProject.id));
  const task = await api.getTask(ctx.parent.id);
  return {
    onTask: { intId: isInt(onTask.id), taskMatches: onTask.taskId === ctx.parent.id, hasProjectId: 'projectId' in onTask, attachment: onTask.attachment },
    onProject: { projectMatches: onProject.projectId === ctx.project.id, hasTaskId: 'taskId' in onProject, hasAttachment: 'attachment' in onProject },
    taskComments: taskComments.map((c) => c.content),
    projectComments: projectComments.map((c) => c.content),
    fetched: fetched.content,
    updated,
    after: after.content,
    deleted,
    afterDelete,
    commentCount: task.commentCount,
  };
});

await step('errors', async () => {
  const theirs = await other.addTask({ content: 'Not yours' });
  const theirProject = await other.addProject({ name: 'Not yours either' });
  return {
    otherUsersProject: await failure(() => api.getProject(theirProject.id)),
    otherUsersComments: await failure(() => api.getComments({ taskId: theirs.id })),
    updateOtherUsers: await failure(() => api.updateTask(theirs.id, { content: 'mine now' })),
    unknown: await failure(() => api.getTask(987654321)),
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
