import { batch } from '@preact/signals';
import { CommandQueue, isAnswered, TransientSendError } from '../api/command-queue';
import { api, form, json, RequestRefusedError, SignedOutError } from '../api/http';
import { IdbCommandStore } from '../api/idb-command-store';
import { dropToken, endServerSession } from '../api/app-session';
import { openPushChannel } from '../api/push-channel';
import { EMPTY_DATA, mergeSync } from '../api/sync-merge';
import type { Command, CommandArgs, CommandType, Item, SyncError, SyncReply } from '../api/sync-types';
import { QUICK_ADD, type QuickAddArgs } from './quick-add-command';
import { localDay } from './dates';
import { fetchTodayFirstLook } from './first-look';
import { forgetSnapshot, keepSnapshots, restoreSnapshot } from './snapshot-keeper';
import { refusalSentence } from './refusals';
import { routeAfterMapping, routeHash } from './routes';
import { keepRowKeys } from './row-keys';
import { connection, notify, pendingCommands, route, serverData, signedIn } from './store';

/** `all` leaves out location reminders: they must be asked for by name. */
const RESOURCE_TYPES = JSON.stringify(['all', 'reminders_location']);

/**
 * User Timing marks of a full sync (a first load's longest wait), for the browser's performance
 * panel and the bench (S14): only full syncs, so the timeline does not fill with every poll.
 */
export const FULL_SYNC_MARKS = { sent: 'doable:full-sync-sent', parsed: 'doable:full-sync-parsed', merged: 'doable:full-sync-merged' } as const;
/** Marks of a first visit's early Today (first-look.ts): asked, and its tasks put on screen. */
export const FIRST_LOOK_MARKS = { sent: 'doable:first-look-sent', shown: 'doable:first-look-merged' } as const;

let queue: CommandQueue | undefined;
/**
 * Commands made before this person's queue is open (a first visit, until its first sync names
 * the user): shown at once, and put in the queue as soon as it opens. Without this, a task ticked
 * off in those first moments would be lost.
 */
const early: Command[] = [];
let closePush: (() => void) | undefined;
/** Sync requests go one at a time: each must carry the token the previous one returned. */
let chain: Promise<unknown> = Promise.resolve();

function serialized<T>(work: () => Promise<T>): Promise<T> {
  const run = chain.then(work, work);
  chain = run.catch(() => undefined);
  return run;
}

/** What a command answered outside the Sync API (a queued quick add) adds to the next sync's answer. */
type Answered = Pick<SyncReply, 'sync_status' | 'temp_id_mapping'>;

function syncRequest(commands: Command[], answered: Answered = {}): Promise<SyncReply> {
  return serialized(async () => {
    const fields: Record<string, string> = { sync_token: serverData.value.syncToken, resource_types: RESOURCE_TYPES };
    if (commands.length > 0) fields['commands'] = JSON.stringify(commands);
    const full = fields['sync_token'] === '*';
    try {
      if (full) performance.mark(FULL_SYNC_MARKS.sent);
      const synced = await api<SyncReply>('/api/v1/sync', form(fields));
      const reply: SyncReply = {
        ...synced,
        sync_status: { ...answered.sync_status, ...synced.sync_status },
        temp_id_mapping: { ...answered.temp_id_mapping, ...synced.temp_id_mapping },
      };
      if (full) performance.mark(FULL_SYNC_MARKS.parsed);
      // One re-render for both: with thousands of tasks each render of the view costs.
      batch(() => {
        serverData.value = mergeSync(serverData.value, reply);
        // Answered commands leave the overlay in the same render that brings what they made; the
        // queue says so only after its IndexedDB write, and in between a new row showed twice.
        if (pendingCommands.value.some((command) => isAnswered(command, reply))) {
          pendingCommands.value = pendingCommands.value.filter((command) => !isAnswered(command, reply));
        }
        // An answer that was already on its way when the browser went offline does not make it online.
        connection.value = navigator.onLine ? 'online' : 'offline';
        keepRowKeys(reply.temp_id_mapping ?? {});
        followMappedRoute(reply.temp_id_mapping ?? {});
      });
      if (full) performance.mark(FULL_SYNC_MARKS.merged);
      return reply;
    } catch (err) {
      if (err instanceof TransientSendError) connection.value = 'offline';
      if (err instanceof SignedOutError) endSession();
      throw err;
    }
  });
}

/** The hash a temp id's mapping moved the route to, until the view has seen it (takeFollowedRoute). */
let followed: string | null = null;

/**
 * A view opened on something made here (a new project, by its temp id) moves to the real id
 * when the server maps it: the temp row leaves the overlay once its command is answered, and a
 * reload or a shared link must name the real one. The history entry is replaced, not added.
 */
function followMappedRoute(mapping: Readonly<Record<string, string>>): void {
  const next = routeAfterMapping(route.value, mapping);
  if (!next) return;
  followed = routeHash(next);
  history.replaceState(history.state, '', followed);
  route.value = next;
}

/**
 * Whether the route just changed only because its temp id was mapped (asked once per change):
 * the same view, so focus must stay where the person is typing rather than jump to its heading.
 */
export function takeFollowedRoute(hash: string): boolean {
  const was = followed === hash;
  followed = null;
  return was;
}

export function reportFailure(err: unknown): void {
  if (err instanceof TransientSendError || err instanceof SignedOutError) return;
  notify(err instanceof RequestRefusedError ? err.message : 'Something went wrong while syncing.');
}

/**
 * An incremental sync, through the queue once it is open: commands waiting go in the same
 * request, and a cue heard while one is out gets a read after it (CommandQueue.sync).
 */
export function syncNow(): void {
  (queue ? queue.sync() : syncRequest([])).catch(reportFailure);
}

/** The session ended (signed out elsewhere, expired): show the sign-in (a call outside the sync learns it too). */
export function endSession(): void {
  dropToken();
  closePush?.();
  signedIn.value = false;
}

/**
 * Sign-out: the server ends the session and revokes its tokens (every tab of this browser is
 * signed out with it); the kept state goes. Unsent commands stay for this person's next sign-in.
 */
export async function signOutNow(): Promise<void> {
  closePush?.();
  await forgetSnapshot(serverData.value.user?.id ?? localStorage.getItem(USER_KEY));
  localStorage.removeItem(USER_KEY);
  await endServerSession().catch(() => notify('Could not reach the server to sign out. Try again when online.'));
  signedIn.value = false;
}

/**
 * Whose queue and kept state to open before the first sync answers, so a page loaded offline (a
 * reload, a new tab, a restart: the session outlives them all) still shows the tasks and takes edits.
 * A user id is no secret; sign-out removes it.
 */
const USER_KEY = 'doable.user';

/** Whether this browser has shown someone's tasks before (the app may start offline for them). */
export function knownUser(): string | null {
  return localStorage.getItem(USER_KEY);
}
const FIRST_SYNC_RETRY_MS = 5_000;

async function openQueue(userId: string): Promise<void> {
  queue = new CommandQueue(new IdbCommandStore(userId), {
    send: sendQueued,
    onChange: (pending) => {
      // An empty queue staying empty is no change: do not re-render the views for it.
      if (pending.length > 0 || pendingCommands.value.length > 0) pendingCommands.value = pending;
    },
    onRefused: (refusals) => {
      for (const { command, status } of refusals) notify(refusalSentence(command.type, status));
    },
  });
  await queue.load();
  for (const command of early.splice(0)) await queue.enqueue(command);
}

/** The next `online` event or a few seconds, whichever comes first. */
function onlineOrLater(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      window.removeEventListener('online', done);
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(done, FIRST_SYNC_RETRY_MS);
    window.addEventListener('online', done);
  });
}

/**
 * Today's tasks from the filter endpoint while the first full sync runs (first-look.ts). They
 * are shown only while nothing has been synced yet: the full sync's answer replaces them whole,
 * and one arriving after it is dropped. A failure leaves Today to the full sync.
 */
async function showTodayFirstLook(): Promise<void> {
  try {
    performance.mark(FIRST_LOOK_MARKS.sent);
    const items = await fetchTodayFirstLook(localDay(new Date()));
    if (serverData.value.syncToken !== '*' || serverData.value.items.size > 0) return;
    serverData.value = { ...serverData.value, items: new Map(items.map((item) => [item.id, item])) };
    performance.mark(FIRST_LOOK_MARKS.shown);
  } catch {
    // Offline, refused or signed out: the full sync's own loop reports and retries.
  }
}

/** After sign-in: the full sync (retried until the server answers), the queue left by an earlier visit, the push channel. */
export async function startSession(): Promise<void> {
  signedIn.value = true;
  serverData.value = EMPTY_DATA;
  window.addEventListener('online', syncNow);
  // Say so at once; the queue learns it only at its next send.
  window.addEventListener('offline', () => (connection.value = 'offline'));
  const lastUser = knownUser();
  if (lastUser) await openQueue(lastUser);
  // The last visit's state shows at once (even offline), and its token makes this first sync incremental.
  const kept = lastUser ? await restoreSnapshot(lastUser) : null;
  if (kept) serverData.value = kept;
  else if (route.value.view === 'today') void showTodayFirstLook();
  for (;;) {
    try {
      await syncRequest([]);
      break;
    } catch (err) {
      // A kept token the server no longer knows (its data was reset): start over with a full sync.
      if (err instanceof RequestRefusedError && serverData.value.syncToken !== '*') {
        serverData.value = EMPTY_DATA;
        continue;
      }
      if (!(err instanceof TransientSendError)) throw err;
      await onlineOrLater();
    }
  }
  const userId = serverData.value.user?.id ?? 'anonymous';
  localStorage.setItem(USER_KEY, userId);
  if (!queue || lastUser !== userId) await openQueue(userId);
  keepSnapshots(userId);
  queue?.flush().catch(reportFailure);
  closePush = openPushChannel(() => serverData.value.user?.websocket_url, syncNow);
}

/**
 * The queue's sender: Sync API commands go together up to the first queued quick add, which goes
 * alone to quick add (`POST /api/v1/tasks/quick`, so the server's parser reads the line, also one
 * typed offline). Its `X-Request-Id` is the command's uuid: a resend after a lost answer gets the
 * first answer back, never a second task. Its outcome joins the incremental sync that follows, as
 * if the Sync API had answered it, so the queue and the overlay settle it like any command: its
 * temp id maps to the task made, and commands queued after it (a tick, an edit) follow.
 */
async function sendQueued(commands: Command[]): Promise<SyncReply> {
  const head = commands[0];
  if (head?.type !== QUICK_ADD) {
    const upTo = commands.findIndex((command) => command.type === QUICK_ADD);
    return syncRequest(upTo < 0 ? commands : commands.slice(0, upTo));
  }
  const args = head.args as unknown as QuickAddArgs;
  try {
    let itemId = args.answered_id;
    if (itemId === undefined) {
      const item = await api<Item>('/api/v1/tasks/quick', json({ text: args.text }, { 'X-Request-Id': head.uuid }));
      // A view's default date (Today) applies only when the line named none: it never overrides one typed.
      if (args.due_if_none && !item.due) run('item_update', { id: item.id, due: { string: args.due_if_none } });
      itemId = item.id;
      // Kept before the sync that settles it (a reload may come first): see CommandQueue.recordAnswer.
      const answered: QuickAddArgs = { ...args, answered_id: item.id };
      const mapping = head.temp_id ? { [head.temp_id]: item.id } : {};
      // Before any sync can bring the task (a push cue's may come first): its row stays the typed line's.
      keepRowKeys(mapping);
      await queue?.recordAnswer({ ...head, args: answered }, mapping);
    }
    return await syncRequest([], { sync_status: { [head.uuid]: 'ok' }, temp_id_mapping: head.temp_id ? { [head.temp_id]: itemId } : {} });
  } catch (err) {
    if (!(err instanceof RequestRefusedError)) throw err;
    const body = (err.body ?? {}) as Partial<SyncError>;
    const refusal: SyncError = { error: body.error ?? err.message, error_code: body.error_code ?? err.status, error_tag: body.error_tag ?? 'INVALID_ARGUMENT_VALUE', http_code: err.status };
    return syncRequest([], { sync_status: { [head.uuid]: refusal } });
  }
}

/** Queues a write; it shows at once (the overlay) and goes to the server now or when online. */
export function run<T extends CommandType>(type: T, args: CommandArgs[T], tempId?: string): string | undefined {
  const command: Command = { type, uuid: crypto.randomUUID(), args, ...(tempId ? { temp_id: tempId } : {}) };
  if (queue) {
    queue.enqueue(command).catch(reportFailure);
  } else {
    early.push(command);
    pendingCommands.value = [...pendingCommands.value, command];
  }
  return tempId;
}

export function addItem(args: CommandArgs['item_add']): void {
  run('item_add', args, crypto.randomUUID());
}

export function toggleItem(item: Item): void {
  run(item.checked ? 'item_uncomplete' : 'item_complete', { ids: [item.id] });
}

export function updateItem(id: string, changes: Omit<CommandArgs['item_update'], 'id'>): void {
  run('item_update', { id, ...changes });
}

export function addNote(itemId: string, content: string): void {
  run('note_add', { item_id: itemId, content }, crypto.randomUUID());
}
