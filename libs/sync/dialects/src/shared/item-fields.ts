import type { ItemRow, StoredDue } from '@doable/sync-domain';
import type { ApiDue, ApiTask } from '@doable/contracts-sync';
import { wireTimestamp } from './wire-format';

/** The due object as v9 and api/v1 send it; `datetime` is the v1 convenience for timed dues. */
export function writeDue(due: StoredDue | null): ApiDue | null {
  if (!due) return null;
  return { date: due.date, timezone: due.timezone, string: due.string, lang: due.lang, is_recurring: due.is_recurring };
}

/** A timestamp in wire text; one PostgreSQL already formatted (ITEM_WIRE_COLUMNS) is that text. */
export function timestampOrNull(value: Date | string | null): string | null {
  if (typeof value === 'string') return value;
  return value ? wireTimestamp(new Date(value)) : null;
}

/**
 * Fields the two current dialects write the same way: the api/v1 task but for what each adds
 * (open to more keys, which v9 sets on the object in place).
 */
export function commonItemFields(item: ItemRow): Omit<ApiTask, 'is_collapsed' | 'note_count'> & Record<string, unknown> {
  return {
    id: item.id,
    user_id: item.user_id,
    project_id: item.project_id,
    section_id: item.section_id,
    parent_id: item.parent_id,
    content: item.content,
    description: item.description,
    priority: item.priority,
    due: writeDue(item.due),
    deadline: item.deadline,
    duration: item.duration,
    labels: item.labels,
    child_order: item.child_order,
    day_order: item.day_order,
    checked: item.checked,
    is_deleted: item.is_deleted,
    added_by_uid: item.added_by_uid,
    assigned_by_uid: item.assigned_by_uid,
    responsible_uid: item.responsible_uid,
    added_at: timestampOrNull(item.added_at),
    completed_at: timestampOrNull(item.completed_at),
    updated_at: timestampOrNull(item.updated_at),
  };
}
