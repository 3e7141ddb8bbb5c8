// Drives the unmodified official SDK (@doist/todoist-sdk 17, ESM) through a project shared by
// three people: invite, accept, reject, a wrong secret, role change, assignment, completion,
// comment, leave and removal. Each person is their own TodoistApi and keeps their own sync token,
// as three apps would; every response passes the SDK's zod validation (LiveNotificationSchema,
// CollaboratorSchema, CollaboratorStateSchema among them). Live notifications are produced
// asynchronously (sync's outbox, then the notifications service), so a step waits for the one it
// needs by syncing incrementally, as a polling client does. Prints one JSON line.
// Env: DOABLE_URL; DOABLE_TOKEN_A/B/C, DOABLE_USER_A/B/C (user ids), DOABLE_EMAIL_B/C.
import { TodoistApi, createCommand } from '@doist/todoist-sdk';

const env = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};
const types = ['all'];

/** One person: their SDK client, their sync token, and everything their syncs showed so far. */
function person(name) {
  const api = new TodoistApi(env(`DOABLE_TOKEN_${name}`), { baseUrl: env('DOABLE_URL') });
  const self = {
    name,
    id: env(`DOABLE_USER_${name}`),
    token: '*',
    notifications: new Map(),
    /** The latest of each project and task the person's syncs carried (tombstones included). */
    projects: new Map(),
    items: new Map(),
    /** Syncs (with commands, if any) and remembers the token and the notifications seen. */
    async sync(commands) {
      const response = await api.sync({ syncToken: self.token, resourceTypes: types, ...(commands ? { commands } : {}) });
      self.token = response.syncToken;
      for (const notification of response.liveNotifications ?? []) self.notifications.set(notification.id, notification);
      for (const project of response.projects ?? []) self.projects.set(project.id, project);
      for (const item of response.items ?? []) self.items.set(item.id, item);
      return response;
    },
    /**
     * Runs commands; answers each one's sync_status value in order, and the response. The SDK
     * throws a TodoistSyncError when a command is refused; its statuses are answered then, and
     * no response.
     */
    async run(...commands) {
      try {
        const response = await self.sync(commands);
        return { statuses: commands.map((command) => response.syncStatus?.[command.uuid]), response };
      } catch (error) {
        if (!error.syncStatus) throw error;
        return { statuses: commands.map((command) => error.syncStatus[command.uuid]), response: null };
      }
    },
    /** Syncs until a notification matching `test` has been seen (20 s at most). */
    async waitFor(description, test) {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const found = [...self.notifications.values()].find(test);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`${name} never saw ${description}; saw ${JSON.stringify([...self.notifications.values()].map(typeOf))}`);
        await new Promise((resolve) => setTimeout(resolve, 150));
        await self.sync();
      }
    },
  };
  return self;
}

const typeOf = (notification) => notification.notificationType;
const statusOf = (status) => (status === 'ok' ? 'ok' : (status?.errorTag ?? status?.error_tag ?? JSON.stringify(status)));
/** The names of the fields a notification carries besides the common ones, sorted. */
const COMMON = new Set(['id', 'createdAt', 'fromUid', 'notificationKey', 'notificationType', 'seqNo', 'isUnread', 'isDeleted']);
const fieldsOf = (notification) => Object.keys(notification).filter((key) => !COMMON.has(key)).sort();

const [a, b, c] = [person('A'), person('B'), person('C')];
const report = {};
for (const who of [a, b, c]) await who.sync();

// A shares a project with B (default role) and C (COMPLETE_ONLY).
const setup = await a.run(
  createCommand('project_add', { name: 'Team project' }, 'team'),
  createCommand('item_add', { content: 'Shared task', projectId: 'team' }, 'task'),
  createCommand('share_project', { projectId: 'team', email: env('DOABLE_EMAIL_B') }),
  createCommand('share_project', { projectId: 'team', email: env('DOABLE_EMAIL_C'), role: 'COMPLETE_ONLY' }),
);
const projectId = setup.response.tempIdMapping.team;
const taskId = setup.response.tempIdMapping.task;
report.share = { statuses: setup.statuses.map(statusOf), shared: setup.response.projects.find((project) => project.id === projectId)?.isShared ?? null };

// B accepts; the project, its task and its people arrive in B's next sync.
const toB = await b.waitFor('an invitation', (n) => typeOf(n) === 'share_invitation_sent');
report.invitation = { fields: fieldsOf(toB), state: toB.state, projectName: toB.projectName, from: toB.fromUser?.email ?? null, fromUid: toB.fromUid };
const accepted = await b.run(createCommand('accept_invitation', { invitationId: toB.invitationId, invitationSecret: toB.invitationSecret }));
report.bJoins = {
  statuses: accepted.statuses.map(statusOf),
  projects: accepted.response.projects.filter((project) => project.id === projectId).map((project) => ({ name: project.name, shared: project.isShared })),
  items: accepted.response.items.filter((item) => item.projectId === projectId).map((item) => item.content),
  collaborators: accepted.response.collaborators.map((collaborator) => collaborator.id).sort(),
  states: accepted.response.collaboratorStates.filter((state) => state.projectId === projectId).map((state) => `${state.userId}:${state.state}`).sort(),
};

// C first answers with a wrong secret (refused), then rejects; A invites again; C accepts.
const toC = await c.waitFor('an invitation', (n) => typeOf(n) === 'share_invitation_sent');
const wrong = await c.run(createCommand('accept_invitation', { invitationId: toC.invitationId, invitationSecret: 'not-the-secret-0123456789' }));
const rejected = await c.run(createCommand('reject_invitation', { invitationId: toC.invitationId, invitationSecret: toC.invitationSecret }));
report.cRejects = { wrongSecret: wrong.statuses.map(statusOf), reject: rejected.statuses.map(statusOf), sawProject: rejected.response.projects.some((project) => project.id === projectId) };
await a.waitFor('the rejection', (n) => typeOf(n) === 'share_invitation_rejected');
const again = await a.run(createCommand('share_project', { projectId, email: env('DOABLE_EMAIL_C'), role: 'COMPLETE_ONLY' }));
const toCAgain = await c.waitFor('a second invitation', (n) => typeOf(n) === 'share_invitation_sent' && n.invitationId !== toC.invitationId);
const cAccepts = await c.run(createCommand('accept_invitation', { invitationId: toCAgain.invitationId, invitationSecret: toCAgain.invitationSecret }));
report.cJoins = { reinvite: again.statuses.map(statusOf), accept: cAccepts.statuses.map(statusOf), items: cAccepts.response.items.filter((item) => item.projectId === projectId).map((item) => item.content) };
await a.waitFor('two acceptances', () => [...a.notifications.values()].filter((n) => typeOf(n) === 'share_invitation_accepted').length === 2);

// A makes B EDIT_ONLY and assigns the task to C.
const roleChange = await a.run(createCommand('project_change_role', { id: projectId, userId: b.id, role: 'EDIT_ONLY' }));
const assign = await a.run(createCommand('item_update', { id: taskId, responsibleUid: c.id }));
const assigned = await c.waitFor('the assignment', (n) => typeOf(n) === 'item_assigned');
report.assignment = {
  roleChange: roleChange.statuses.map(statusOf),
  assign: assign.statuses.map(statusOf),
  notification: { fields: fieldsOf(assigned), itemId: assigned.itemId === taskId, responsibleUid: assigned.responsibleUid, assignedByUid: assigned.assignedByUid },
};

// C may complete but not edit; A reopens (C, the responsible user, is told; A, the actor, is not).
const cEdits = await c.run(createCommand('item_update', { id: taskId, content: 'Renamed by C' }));
const cCompletes = await c.run(createCommand('item_close', { id: taskId }));
const completed = await a.waitFor('the completion', (n) => typeOf(n) === 'item_completed');
const reopen = await a.run(createCommand('item_uncomplete', { id: taskId }));
await c.waitFor('the reopening', (n) => typeOf(n) === 'item_uncompleted');
report.completion = { cEdits: cEdits.statuses.map(statusOf), cCompletes: cCompletes.statuses.map(statusOf), notification: fieldsOf(completed), reopen: reopen.statuses.map(statusOf) };

// B (now EDIT_ONLY) may not add sections, may comment: A and C are told.
const bSection = await b.run(createCommand('section_add', { name: 'Not allowed', projectId }));
const bNote = await b.run(createCommand('note_add', { itemId: taskId, content: 'A comment from B' }));
const noteToA = await a.waitFor('the comment', (n) => typeOf(n) === 'note_added');
await c.waitFor('the comment', (n) => typeOf(n) === 'note_added');
report.comment = { bSection: bSection.statuses.map(statusOf), bNote: bNote.statuses.map(statusOf), fields: fieldsOf(noteToA), content: noteToA.noteContent };

// C leaves: their next sync carries the project and task as tombstones.
const leave = await c.run(createCommand('project_leave', { projectId }));
await a.waitFor('the leaving', (n) => typeOf(n) === 'user_left_project');
await b.waitFor('the leaving', (n) => typeOf(n) === 'user_left_project');
report.cLeaves = {
  statuses: leave.statuses.map(statusOf),
  project: leave.response.projects.filter((project) => project.id === projectId).map((project) => project.isDeleted),
  items: leave.response.items.filter((item) => item.id === taskId).map((item) => item.isDeleted),
};

// A removes B: B is told, B's sync drops the project, A's shows B's state deleted.
const remove = await a.run(createCommand('delete_collaborator', { projectId, email: env('DOABLE_EMAIL_B') }));
const removed = await b.waitFor('the removal', (n) => typeOf(n) === 'user_removed_from_project');
await b.sync();
const bFull = await new TodoistApi(env('DOABLE_TOKEN_B'), { baseUrl: env('DOABLE_URL') }).sync({ syncToken: '*', resourceTypes: types });
report.bRemoved = {
  statuses: remove.statuses.map(statusOf),
  notification: { fields: fieldsOf(removed), removedUid: removed.removedUid },
  // The removal may have reached one of B's syncs while B waited for its notification.
  tombstone: { project: b.projects.get(projectId)?.isDeleted ?? null, item: b.items.get(taskId)?.isDeleted ?? null },
  fullSyncHasProject: bFull.projects.some((project) => project.id === projectId),
  aSeesStates: remove.response.collaboratorStates.filter((state) => state.projectId === projectId).map((state) => `${state.userId}:${state.isDeleted}`).sort(),
};

// Everyone's notifications, once every event has been handled: each kind exactly as often as §6 sends it.
await new Promise((resolve) => setTimeout(resolve, 1_500));
report.notifications = {};
for (const who of [a, b, c]) {
  const full = await new TodoistApi(env(`DOABLE_TOKEN_${who.name}`), { baseUrl: env('DOABLE_URL') }).sync({ syncToken: '*', resourceTypes: ['live_notifications'] });
  report.notifications[who.name] = full.liveNotifications.filter((n) => !n.isDeleted).map((n) => (typeOf(n) === 'share_invitation_sent' ? `${typeOf(n)}:${n.state}` : typeOf(n))).sort();
}
console.log(JSON.stringify(report));
