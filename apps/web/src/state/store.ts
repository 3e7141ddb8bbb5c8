import { computed, signal } from '@preact/signals';
import { EMPTY_DATA } from '../api/sync-merge';
import type { Command, SyncData } from '../api/sync-types';
import { applyPending } from './pending-overlay';
import { parseRoute } from './routes';

/** The server's state as last synced. */
export const serverData = signal<SyncData>(EMPTY_DATA);
/** Commands made here and not yet answered. */
export const pendingCommands = signal<readonly Command[]>([]);
/** Tasks whose delete is held while its Undo notice shows (task-actions.ts): hidden meanwhile. */
export const deletingIds = signal<ReadonlySet<string>>(new Set());
/** What every view reads: the server's state with the pending commands on top. */
export const viewData = computed(() => {
  const data = applyPending(serverData.value, pendingCommands.value);
  if (deletingIds.value.size === 0) return data;
  const items = new Map(data.items);
  for (const id of deletingIds.value) items.delete(id);
  return { ...data, items };
});

/**
 * Notification setting choices sent and not yet answered (`type:service` → on). They go by REST,
 * not as queued commands, so the pending overlay does not see them; the settings view lays them
 * over the server's settings (settings.ts notificationRows).
 */
export const savingNotificationChoices = signal<ReadonlyMap<string, boolean>>(new Map());

export type Connection = 'loading' | 'online' | 'offline';
export const connection = signal<Connection>('loading');
/** Messages for the live region: refused commands, failures. */
export const notices = signal<readonly string[]>([]);
export const route = signal(parseRoute(location.hash));
export const signedIn = signal(false);
export const signInError = signal<string | null>(null);

const NOTICE_MS = 10_000;

/** Shows a message for a while (a person may also dismiss it); at most five at once. */
export function notify(message: string): void {
  notices.value = [...notices.value.slice(-4), message];
  setTimeout(() => dismiss(message), NOTICE_MS);
}

export function dismiss(message: string): void {
  notices.value = notices.value.filter((entry) => entry !== message);
}
