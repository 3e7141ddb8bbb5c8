// The api/v1 walk shared by todoist-api-typescript 5.9.0 (api-v1-client.mjs) and
// @doist/todoist-sdk 17 (sdk-rest-client.mjs): both call the same endpoints and validate every
// response with their own zod schemas. A step the client rejects is reported as {error, status}
// instead of aborting, so the spec shows every failure at once. `sdk` adds the methods only
// sdk 17 has (search, section archive, all completed tasks, full project, join, permissions, id
// mappings, and a custom X-Request-Id header through `withRequestId`). Not a runnable script:
// imported by the two above.

export async function driveApiV1({ api, other, stranger, sdk = false, withRequestId = null }) {
  const report = {};
  const ctx = {};
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

  await step('user', async () => {
    const user = await api.getUser();
    return { id: isId(user.id), fullName: user.fullName, hasEmail: user.email.includes('@'), inboxProjectId: isId(user.inboxProjectId) };
  });

  await step('projects', async () => {
    const before = await api.getProjects();
    const project = await api.addProject({ name: 'API project', color: 'berry_red', isFavorite: true, viewStyle: 'board' });
    const child = await api.addProject({ name: 'API child', parentId: project.id });
    const archivable = await api.addProject({ name: 'API archivable' });
    ctx.project = project;
    const fetched = await api.getProject(project.id);
    const updated = await api.updateProject(project.id, { name: 'API project (renamed)', isFavorite: false, color: 'blue' });
    const collaborators = await api.getProjectCollaborators(project.id);
    const archived = await api.archiveProject(archivable.id);
    const archivedList = await api.getArchivedProjects();
    const activeWhileArchived = names((await api.getProjects()).results);
    const unarchived = await api.unarchiveProject(archivable.id);
    const deleted = await api.deleteProject(archivable.id);
    const search = sdk ? { search: names((await api.searchProjects({ query: 'renamed' })).results) } : {};
    const all = await api.getProjects();
    return {
      before: { names: names(before.results), nextCursor: before.nextCursor },
      inbox: before.results.find((p) => p.inboxProject)?.name ?? null,
      added: { id: isId(project.id), name: project.name, color: project.color, isFavorite: project.isFavorite, viewStyle: project.viewStyle, parentId: project.parentId ?? null },
      child: { parentMatches: child.parentId === project.id },
      fetched: fetched.id === project.id,
      updated: { name: updated.name, isFavorite: updated.isFavorite, color: updated.color },
      collaborators: { count: collaborators.results.length, nextCursor: collaborators.nextCursor },
      archived: { isArchived: archived.isArchived, listed: names(archivedList.results), activeWhileArchived },
      unarchived: unarchived.isArchived,
      deleted,
      all: names(all.results),
      ...search,
    };
  });

  await step('sections', async () => {
    const section = await api.addSection({ name: 'API section', projectId: ctx.project.id });
    const spare = await api.addSection({ name: 'API spare', projectId: ctx.project.id });
    ctx.section = section;
    const listed = await api.getSections({ projectId: ctx.project.id });
    const fetched = await api.getSection(section.id);
    const updated = await api.updateSection(section.id, { name: 'API section (renamed)' });
    const extra = {};
    if (sdk) {
      extra.search = names((await api.searchSections({ query: 'renamed', projectId: ctx.project.id })).results);
      extra.archived = (await api.archiveSection(spare.id)).isArchived;
      extra.unarchived = (await api.unarchiveSection(spare.id)).isArchived;
    }
    const deleted = await api.deleteSection(spare.id);
    return { id: isId(section.id), projectMatches: section.projectId === ctx.project.id, listed: names(listed.results), fetched: fetched.name, updated: updated.name, deleted, ...extra };
  });

  await step('labels', async () => {
    const label = await api.addLabel({ name: 'apilabel', color: 'green', isFavorite: true });
    ctx.label = label;
    const listed = await api.getLabels();
    const fetched = await api.getLabel(label.id);
    const updated = await api.updateLabel(label.id, { name: 'apilabel-renamed', isFavorite: false, order: 3 });
    ctx.labelName = updated.name;
    const extra = sdk ? { search: names((await api.searchLabels({ query: 'apilabel' })).results) } : {};
    return { id: isId(label.id), color: label.color, isFavorite: label.isFavorite, listed: names(listed.results), fetched: fetched.name, updated: { name: updated.name, isFavorite: updated.isFavorite, order: updated.order }, ...extra };
  });

  await step('tasks', async () => {
    const parent = await api.addTask({
      content: 'API parent',
      description: 'about it',
      projectId: ctx.project.id,
      sectionId: ctx.section.id,
      labels: [ctx.labelName],
      priority: 4,
      dueString: 'tomorrow at 9am',
      duration: 30,
      durationUnit: 'minute',
      deadlineDate: '2030-02-01',
    });
    const dated = await api.addTask({ content: 'API dated', projectId: ctx.project.id, dueDate: '2030-01-15', duration: 2, durationUnit: 'day' });
    const timed = await api.addTask({ content: 'API timed', projectId: ctx.project.id, parentId: parent.id, dueDatetime: '2030-01-15T10:00:00Z' });
    const inbox = await api.addTask({ content: 'API inbox', labels: ['adhoc'] });
    const mover = await api.addTask({ content: 'API mover' });
    ctx.parent = parent;
    ctx.inbox = inbox;
    ctx.project2 = await api.addProject({ name: 'API destination' });
    const fetched = await api.getTask(parent.id);
    const byProject = await api.getTasks({ projectId: ctx.project.id });
    const bySection = await api.getTasks({ sectionId: ctx.section.id });
    const byParent = await api.getTasks({ parentId: parent.id });
    const byLabel = await api.getTasks({ label: ctx.labelName });
    const byIds = await api.getTasks({ ids: [dated.id, timed.id] });
    const byFilter = await api.getTasksByFilter({ query: 'p1 | @adhoc' });
    const updated = await api.updateTask(dated.id, { content: 'API dated (edited)', priority: 2, dueString: 'no date', deadlineDate: '2030-03-01' });
    const relabelled = await api.updateTask(parent.id, { labels: [], dueDatetime: '2030-04-01T08:30:00Z', duration: 1, durationUnit: 'day', deadlineDate: null });
    const german = await api.addTask({ content: 'API german', projectId: ctx.project2.id, dueString: 'morgen', dueLang: 'de', order: 7 });
    const moved = await api.moveTask(mover.id, { projectId: ctx.project2.id });
    const movedToSection = await api.moveTask(mover.id, { sectionId: ctx.section.id });
    const movedUnder = await api.moveTask(mover.id, { parentId: parent.id });
    ctx.mover = mover;
    const closed = await api.closeTask(dated.id);
    const openAfterClose = names((await api.getTasks({ projectId: ctx.project.id })).results);
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
        deadline: parent.deadline?.date ?? null,
        parentId: parent.parentId,
        checked: parent.checked,
        isDeleted: parent.isDeleted,
      },
      dated: { date: dated.due?.date, datetime: dated.due?.datetime ?? null, duration: dated.duration, sectionId: dated.sectionId },
      timed: { date: timed.due?.date, datetime: timed.due?.datetime, parentMatches: timed.parentId === parent.id, duration: timed.duration },
      inbox: { projectIsInbox: inbox.projectId !== ctx.project.id, labels: inbox.labels },
      fetched: fetched.content,
      byProject: { names: names(byProject.results), nextCursor: byProject.nextCursor },
      bySection: names(bySection.results),
      byParent: names(byParent.results),
      byLabel: names(byLabel.results),
      byIds: names(byIds.results),
      byFilter: { names: names(byFilter.results), nextCursor: byFilter.nextCursor },
      updated: { content: updated.content, priority: updated.priority, due: updated.due, deadline: updated.deadline?.date ?? null },
      relabelled: { labels: relabelled.labels, due: relabelled.due?.date, timezone: relabelled.due?.timezone ?? null, duration: relabelled.duration, deadline: relabelled.deadline },
      german: { lang: german.due?.lang, string: german.due?.string, hasDate: Boolean(german.due?.date), childOrder: german.childOrder },
      moved: moved.projectId === ctx.project2.id,
      movedToSection: { sectionMatches: movedToSection.sectionId === ctx.section.id, projectMatches: movedToSection.projectId === ctx.project.id },
      movedUnder: { parentMatches: movedUnder.parentId === parent.id, projectMatches: movedUnder.projectId === ctx.project.id },
      closed,
      openAfterClose,
      reopened,
      afterReopen: afterReopen.checked,
      deleted,
      afterDelete,
    };
  });

  // moveTasks goes through POST /api/v1/sync (item_move commands, resource_types ['items'], no
  // sync_token) and reads the moved tasks back from the `items` of that reply.
  await step('moveTasks', async () => {
    const moved = await api.moveTasks([ctx.mover.id, ctx.inbox.id], { projectId: ctx.project2.id });
    return moved.map((task) => `${task.content}:${task.projectId === ctx.project2.id}`).sort();
  });

  await step('quickAdd', async () => {
    const task = await api.quickAddTask({ text: 'API quick p1 tomorrow @quicklabel' });
    return { id: isId(task.id), content: task.content, priority: task.priority, labels: task.labels, hasDue: Boolean(task.due?.date) };
  });

  await step('sharedLabels', async () => {
    const all = await api.getSharedLabels();
    const withoutPersonal = await api.getSharedLabels({ omitPersonal: true });
    const renamed = await api.renameSharedLabel({ name: 'adhoc', newName: 'adhoc-renamed' });
    const inboxAfterRename = (await api.getTask(ctx.inbox.id)).labels;
    const removed = await api.removeSharedLabel({ name: 'adhoc-renamed' });
    const inboxAfterRemove = (await api.getTask(ctx.inbox.id)).labels;
    return { all: [...all.results].sort(), withoutPersonal: [...withoutPersonal.results].sort(), renamed, inboxAfterRename, removed, inboxAfterRemove, after: [...(await api.getSharedLabels()).results].sort() };
  });

  await step('comments', async () => {
    const attachment = { fileName: 'a.txt', fileUrl: 'https://files.example.test/a.txt', fileType: 'text/plain', resourceType: 'file' };
    const onTask = await api.addComment({ taskId: ctx.parent.id, content: 'API task comment', attachment });
    const onProject = await api.addComment({ projectId: ctx.project.id, content: 'API project comment' });
    const taskComments = await api.getComments({ taskId: ctx.parent.id });
    const projectComments = await api.getComments({ projectId: ctx.project.id });
    const fetched = await api.getComment(onTask.id);
    const updated = await api.updateComment(onProject.id, { content: 'API project comment (edited)' });
    const deleted = await api.deleteComment(onProject.id);
    const afterDelete = await failure(() => api.getComment(onProject.id));
    const task = await api.getTask(ctx.parent.id);
    return {
      onTask: {
        id: isId(onTask.id),
        taskMatches: onTask.taskId === ctx.parent.id,
        projectId: onTask.projectId ?? null,
        attachment: { fileName: onTask.fileAttachment?.fileName, fileUrl: onTask.fileAttachment?.fileUrl, resourceType: onTask.fileAttachment?.resourceType },
      },
      onProject: { projectMatches: onProject.projectId === ctx.project.id, taskId: onProject.taskId ?? null, attachment: onProject.fileAttachment ?? null },
      taskComments: { contents: taskComments.results.map((c) => c.content), nextCursor: taskComments.nextCursor },
      projectComments: projectComments.results.map((c) => c.content),
      fetched: fetched.content,
      updated: updated.content,
      deleted,
      afterDelete,
      noteCount: 'noteCount' in task ? task.noteCount : 'not in schema',
    };
  });

  await step('completed', async () => {
    const task = await api.addTask({ content: 'API done', dueDate: '2030-06-10' });
    await api.closeTask(task.id);
    const now = new Date();
    const since = new Date(now.getTime() - 86_400_000).toISOString().slice(0, 19);
    const until = new Date(now.getTime() + 86_400_000).toISOString().slice(0, 19);
    const byCompletion = await api.getCompletedTasksByCompletionDate({ since, until });
    const byDue = await api.getCompletedTasksByDueDate({ since: '2030-06-01T00:00:00', until: '2030-06-20T00:00:00' });
    const byDueElsewhere = await api.getCompletedTasksByDueDate({ since: '2031-06-01T00:00:00', until: '2031-06-20T00:00:00' });
    const stats = await api.getProductivityStats();
    return {
      stats: { completedCount: stats.completedCount, today: stats.daysItems?.[0]?.totalCompleted ?? null },
      byCompletion: { names: names(byCompletion.items), checked: byCompletion.items.map((t) => t.checked), completedAt: byCompletion.items.every((t) => Boolean(t.completedAt)), nextCursor: byCompletion.nextCursor },
      byDue: names(byDue.items),
      byDueElsewhere: names(byDueElsewhere.items),
    };
  });

  await step('pagination', async () => {
    const project = await api.addProject({ name: 'API paging' });
    for (let index = 0; index < 7; index += 1) await api.addTask({ content: `page task ${index}`, projectId: project.id });
    const pages = [];
    const seen = [];
    let cursor = null;
    do {
      const page = await api.getTasks({ projectId: project.id, limit: 3, cursor });
      pages.push(page.results.length);
      seen.push(...page.results.map((task) => task.content));
      cursor = page.nextCursor;
    } while (cursor && pages.length < 10);
    const filterPage = await api.getTasksByFilter({ query: '#API paging', limit: 5 });
    const badCursor = await failure(() => api.getTasks({ projectId: project.id, limit: 3, cursor: 'not-a-cursor' }));
    return { pages, seen: seen.sort(), unique: new Set(seen).size, filterFirstPage: filterPage.results.length, filterHasNext: typeof filterPage.nextCursor === 'string', badCursor };
  });

  await step('idempotency', async () => {
    const requestId = crypto.randomUUID();
    const first = await api.addTask({ content: 'API once' }, requestId);
    const replay = await api.addTask({ content: 'API once' }, requestId);
    const found = await api.getTasksByFilter({ query: 'search: API once' });
    return { sameId: first.id === replay.id, copies: found.results.length };
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
      projects: names((await api.getProjects()).results),
    };
  });

  // After the cleanup, so the steps above see the account as they always did.
  const window = () => {
    const now = new Date();
    return { since: new Date(now.getTime() - 86_400_000).toISOString().slice(0, 19), until: new Date(now.getTime() + 86_400_000).toISOString().slice(0, 19) };
  };

  await step('completedFilters', async () => {
    const urgent = await api.addTask({ content: 'API urgent done', priority: 4, dueDate: '2030-06-11', labels: ['urgentlabel'] });
    await api.closeTask(urgent.id);
    // One window for the whole step: a cursor is bound to its parameters, so a page asked for a
    // second later (since/until moved on) would be refused as another query's cursor.
    const span = window();
    const byCompletion = (filterQuery, extra = {}) => api.getCompletedTasksByCompletionDate({ ...span, filterQuery, ...extra });
    const june = { since: '2030-06-01T00:00:00', until: '2030-06-20T00:00:00' };
    const firstPage = await byCompletion('search: API', { limit: 1 });
    const secondPage = await byCompletion('search: API', { limit: 1, cursor: firstPage.nextCursor });
    return {
      p1: names((await byCompletion('p1')).items),
      notP1: names((await byCompletion('!p1')).items),
      label: names((await byCompletion('@urgentlabel')).items),
      lists: names((await byCompletion('p1, search: API done')).items),
      dueP1: names((await api.getCompletedTasksByDueDate({ ...june, filterQuery: 'p1' })).items),
      dueDated: names((await api.getCompletedTasksByDueDate({ ...june, filterQuery: 'due before: 2030-06-11', filterLang: 'en' })).items),
      german: names((await byCompletion('p1', { filterLang: 'de' })).items),
      workspace: (await byCompletion(null, { workspaceId: '1' })).items.length,
      pages: [firstPage.items.length, secondPage.items.length, typeof firstPage.nextCursor, secondPage.nextCursor],
      distinctPages: firstPage.items[0]?.id !== secondPage.items[0]?.id,
      badFilter: await failure(() => byCompletion('(((')),
      badLang: await failure(() => byCompletion('p1', { filterLang: 'xx' })),
      cursorOfOtherFilter: await failure(() => byCompletion('p1', { limit: 1, cursor: firstPage.nextCursor })),
    };
  });

  await step('completedSearch', async () => {
    const first = await api.searchCompletedTasks({ query: 'API', limit: 1 });
    const second = await api.searchCompletedTasks({ query: 'API', limit: 1, cursor: first.nextCursor });
    const urgent = await api.searchCompletedTasks({ query: 'URGENT' });
    return {
      urgent: { names: names(urgent.items), checked: urgent.items.map((task) => task.checked), nextCursor: urgent.nextCursor },
      // most recently completed first
      pages: [names(first.items), names(second.items), second.nextCursor],
      active: names((await api.searchCompletedTasks({ query: 'page task' })).items),
      missingQuery: await failure(() => api.searchCompletedTasks({ query: '' })),
      theirs: names((await other.searchCompletedTasks({ query: 'API' })).items),
    };
  });

  if (sdk) {
    await step('allCompleted', async () => {
      const user = await api.getUser();
      const all = await api.getAllCompletedTasks();
      const limited = await api.getAllCompletedTasks({ limit: 1, offset: 1 });
      const labelled = await api.getAllCompletedTasks({ label: 'urgentlabel' });
      const since = await api.getAllCompletedTasks({ since: new Date(Date.now() + 3_600_000) });
      return {
        names: names(all.items),
        checked: all.items.every((task) => task.checked),
        projects: Object.values(all.projects).map((project) => project.id === user.inboxProjectId),
        sections: Object.keys(all.sections).length,
        offsetPage: names(limited.items),
        labelled: names(labelled.items),
        future: since.items.length,
      };
    });

    await step('projectExtras', async () => {
      const theirs = await other.addProject({ name: 'Their full' });
      const theirTask = await other.addTask({ content: 'Their task', projectId: theirs.id });
      const project = await api.addProject({ name: 'API full' });
      const section = await api.addSection({ name: 'Full section', projectId: project.id });
      const task = await api.addTask({ content: 'Full task', projectId: project.id, sectionId: section.id });
      await api.addTask({ content: 'Full loose task', projectId: project.id });
      await api.addComment({ projectId: project.id, content: 'Full project comment' });
      await api.addComment({ taskId: task.id, content: 'Full task comment' });
      const old = await api.addProject({ name: 'API old' });
      const countBefore = await api.getArchivedProjectsCount();
      await api.archiveProject(old.id);
      const countAfter = await api.getArchivedProjectsCount();
      // A workspace of the user's own with no archived project in it.
      const workspace = await api.addWorkspace({ name: 'Driver team' });
      const inWorkspace = await api.getArchivedProjectsCount({ workspaceId: workspace.id });
      const permissions = await api.getProjectPermissions();
      const full = await api.getFullProject(project.id);
      // Computed by the SDK from the Sync API's user_plan_limits and a walk of every project page.
      const capacity = await api.getPersonalProjectCapacity();
      const result = {
        capacity: {
          maxProjects: capacity.maxProjects,
          counted: capacity.activeCount > 1,
          remaining: capacity.remaining === Math.max(0, capacity.maxProjects - capacity.activeCount),
        },
        archivedCount: [countBefore.count, countAfter.count, inWorkspace.count],
        permissions: {
          projectRoles: permissions.projectCollaboratorActions.map((role) => role.name),
          workspaceRoles: permissions.workspaceCollaboratorActions.map((role) => role.name),
          creatorMayDelete: permissions.projectCollaboratorActions[0].actions.some((action) => action.name === 'project_delete'),
        },
        full: {
          project: full.project?.name,
          commentsCount: full.commentsCount,
          tasks: names(full.tasks),
          sections: names(full.sections),
          collaborators: full.collaborators.map((person) => ({ name: person.name, hasEmail: person.email.includes('@') })),
          notes: full.notes.map((note) => note.content),
        },
        fullTheirs: await failure(() => api.getFullProject(theirs.id)),
        joinPersonal: await failure(() => api.joinProject(project.id)),
        joinTheirs: await failure(() => api.joinProject(theirs.id)),
        taskMappings: (await api.getIdMappings({ objName: 'tasks', objIds: [task.id, theirTask.id] })).map((m) => [m.oldId === task.id, m.newId === task.id]),
        projectMappings: (await api.getIdMappings({ objName: 'projects', objIds: [project.id, old.id] })).length,
        sectionMappings: (await api.getIdMappings({ objName: 'sections', objIds: [section.id] })).length,
        badObject: await failure(() => api.getIdMappings({ objName: 'widgets', objIds: [task.id] })),
      };
      await api.deleteProject(project.id);
      await api.deleteProject(old.id);
      return result;
    });
  }

  if (withRequestId) {
    // A retried quick add: the same X-Request-Id twice, as a client retrying after a lost answer would send.
    await step('quickAddReplay', async () => {
      const retrying = withRequestId(crypto.randomUUID());
      const first = await retrying.quickAddTask({ text: 'API quick once p2 @replaylabel' });
      const replay = await retrying.quickAddTask({ text: 'API quick once p2 @replaylabel' });
      const fresh = await withRequestId(crypto.randomUUID()).quickAddTask({ text: 'API quick twice' });
      return {
        sameId: first.id === replay.id,
        replay: { content: replay.content, priority: replay.priority, labels: replay.labels },
        copies: (await api.getTasksByFilter({ query: 'search: API quick once' })).results.length,
        freshIsNew: fresh.id !== first.id,
      };
    });
  }

  return report;
}
