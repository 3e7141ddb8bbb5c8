import { TransientSendError } from '../api/command-queue';
import { api, json, SignedOutError } from '../api/http';
import type { CommandArgs, NotificationSettings, Project, ProjectInvitation } from '../api/sync-types';
import { localDay } from './dates';
import { QUICK_ADD, type QuickAddArgs } from './quick-add-command';
import { endSession, run } from './session';
import { choiceKey, type NotificationService, notificationSettingBody } from './settings';
import { notify, savingNotificationChoices, serverData } from './store';

/*
 * The app's calls outside the Sync API's command queue: quick add (the parser is the server's),
 * completed history (evaluated by the server), uploads, notification settings and a project's
 * open invitations (REST only); saved filters are api/filter-tasks.ts. Each needs a connection; session.ts holds the sync and the queue.
 */

/**
 * Quick add goes through the command queue (quick-add-command.ts): sent at once when online, kept
 * in IndexedDB and sent when the connection returns otherwise, parsed by the server either way.
 * `offline` is what the pending overlay shows meanwhile, in item_add's terms (the line as typed,
 * where the view would put it); `dueIfNone` dates a task the line left undated.
 */
export function quickAdd(text: string, dueIfNone?: string, offline: CommandArgs['item_add'] = { content: text }): Promise<void> {
  // Until the server answers, the view's own date shows the task where it was added (Today's `today` is this day).
  const previewDue = dueIfNone ? { due: { string: dueIfNone, ...(dueIfNone === 'today' ? { date: localDay(new Date()) } : {}) } } : {};
  const args: QuickAddArgs = { text, ...(dueIfNone ? { due_if_none: dueIfNone } : {}), preview: { ...offline, ...previewDue } };
  run(QUICK_ADD, args, crypto.randomUUID());
  return Promise.resolve();
}

export interface CompletedTask {
  id?: string;
  task_id?: string;
  content: string;
  completed_at: string;
  project_id: string;
}

/** The last four weeks of completed history (the server's window is at most three months). */
export async function completedTasks(): Promise<CompletedTask[]> {
  const until = new Date();
  const since = new Date(until.getTime() - 28 * 24 * 3600 * 1000);
  const params = new URLSearchParams({ since: since.toISOString(), until: until.toISOString(), limit: '200' });
  const page: { items?: CompletedTask[] } = await api(`/api/v1/tasks/completed/by_completion_date?${params.toString()}`);
  return page.items ?? [];
}

/** What an upload answers: the file as a comment attaches it (the wire's attachment). */
export type FileAttachment = NonNullable<CommandArgs['note_add']['file_attachment']>;

/** Uploads a file (POST /api/v1/uploads) and comments with it attached; uploads need a connection. */
export async function addNoteWithFile(itemId: string, content: string, file: File): Promise<void> {
  const body = new FormData();
  body.append('file_name', file.name);
  body.append('file', file, file.name);
  try {
    const attachment = await api<FileAttachment>('/api/v1/uploads', { method: 'POST', body });
    run('note_add', { item_id: itemId, content, file_attachment: attachment }, crypto.randomUUID());
  } catch (err) {
    notify(err instanceof TransientSendError ? 'The file could not be uploaded: no connection. Try again when online.' : 'The file could not be uploaded.');
  }
}

/**
 * Turns one channel of one notification type on or off. The server takes this only as a REST
 * call (`PUT /api/v1/notification_setting`; update_notification_setting is no Sync API command),
 * so it needs a connection: the choice shows while it is sent, and the answer (the settings
 * whole) replaces the held ones. Refused or offline, the box drops back and a notice says why.
 */
export async function saveNotificationSetting(type: string, service: NotificationService, on: boolean): Promise<void> {
  const key = choiceKey(type, service);
  savingNotificationChoices.value = new Map(savingNotificationChoices.value).set(key, on);
  try {
    const settings = await api<NotificationSettings>('/api/v1/notification_setting', { ...json(notificationSettingBody(type, service, on)), method: 'PUT' });
    serverData.value = { ...serverData.value, notificationSettings: settings };
  } catch (err) {
    if (err instanceof SignedOutError) endSession();
    else notify(err instanceof TransientSendError ? 'The notification setting was not saved: no connection. Try again when online.' : 'The server refused the notification setting.');
  } finally {
    // A later click on the same box may still be on its way: only this choice is dropped.
    if (savingNotificationChoices.value.get(key) === on) {
      const next = new Map(savingNotificationChoices.value);
      next.delete(key);
      savingNotificationChoices.value = next;
    }
  }
}

/**
 * The person's archived projects (`GET /api/v1/projects/archived`, page after page): the Sync
 * API's state is what is in use, so the archive is asked of the REST API when it is looked at.
 */
export async function archivedProjects(atMost = 1000): Promise<Project[]> {
  const projects: Project[] = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams({ limit: '200', ...(cursor ? { cursor } : {}) });
    const page: { results: Project[]; next_cursor: string | null } = await api(`/api/v1/projects/archived?${params.toString()}`);
    projects.push(...page.results);
    cursor = page.next_cursor;
  } while (cursor && projects.length < atMost);
  return projects;
}

/**
 * A project's open invitations (`GET /api/v1/projects/{id}/invitations`, Doable's own): every
 * address, one with no account too, which the Sync API's collaborator states cannot name. Only
 * those who may invite there are answered (others get 403).
 */
export function projectInvitations(projectId: string): Promise<ProjectInvitation[]> {
  return api<ProjectInvitation[]>(`/api/v1/projects/${encodeURIComponent(projectId)}/invitations`);
}
