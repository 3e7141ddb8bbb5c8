import type { ObjectEvent } from '@doable/contracts-sync';

/**
 * What the activity log keeps of the object events (public-api-facts §1.4): items added,
 * updated (content, description, due date, assignee: the `last_*` keys item-events.ts writes
 * for those only), deleted, completed, uncompleted; notes added, updated, deleted; projects
 * added, updated (a rename: `last_name`), deleted, archived, unarchived, shared, left.
 * Sections, labels, filters and reminders are for webhooks only.
 */
const LOGGED: Readonly<Record<string, ReadonlySet<string>>> = {
  item: new Set(['added', 'updated', 'deleted', 'completed', 'uncompleted']),
  note: new Set(['added', 'updated', 'deleted']),
  project: new Set(['added', 'updated', 'deleted', 'archived', 'unarchived', 'shared', 'left']),
};

const LOGGED_ITEM_UPDATES = ['last_content', 'last_description', 'last_due_date', 'last_responsible_uid'];

/** Whether the log may keep events of this kind (an update only when isLogged says what changed is one it shows). */
export function isLoggedKind(event: Pick<ObjectEvent, 'objectType' | 'eventType'>): boolean {
  return LOGGED[event.objectType]?.has(event.eventType) ?? false;
}

export function isLogged(event: Pick<ObjectEvent, 'objectType' | 'eventType' | 'extraData'>): boolean {
  if (!isLoggedKind(event)) return false;
  if (event.eventType !== 'updated') return true;
  if (event.objectType === 'item') return LOGGED_ITEM_UPDATES.some((key) => key in event.extraData);
  if (event.objectType === 'project') return 'last_name' in event.extraData;
  return true;
}
