/**
 * A timestamp as v8 wrote it: whole seconds, `2024-01-02T03:04:05Z`. The v9 writer's timestamps
 * carry microseconds (`…05.123000Z`); those are cut, not rounded, so a v8 time is never later
 * than the v9 one. No timestamp (null) stays null.
 */
function v8Timestamp(value: unknown): unknown {
  return typeof value === 'string' ? value.replace(/\.\d+Z$/, 'Z') : (value ?? null);
}

/**
 * A task as Sync v8 wrote it, for the one v8 endpoint still called (`/sync/v8/quick/add`, by
 * @doist/todoist-api-typescript 1.7.0): integer ids, `checked` and `collapsed` as 0/1, labels as
 * label ids, `date_added` (client-constraints §2.10), timestamps in whole seconds. Derived from the v9 item.
 */
export function writeV8Item(v9: Record<string, unknown>, labelIds: ReadonlyMap<string, string>): Record<string, unknown> {
  const int = (value: unknown): number | null => (typeof value === 'string' && value !== '' ? Number(value) : null);
  const labels = Array.isArray(v9['labels']) ? (v9['labels'] as string[]) : [];
  return {
    ...v9,
    id: int(v9['id']),
    user_id: int(v9['user_id']),
    project_id: int(v9['project_id']),
    section_id: int(v9['section_id']),
    parent_id: int(v9['parent_id']),
    added_by_uid: int(v9['added_by_uid']),
    assigned_by_uid: int(v9['assigned_by_uid']),
    responsible_uid: int(v9['responsible_uid']),
    labels: labels.flatMap((name) => {
      const id = labelIds.get(name.toLowerCase());
      return id === undefined ? [] : [Number(id)];
    }),
    checked: v9['checked'] === true ? 1 : 0,
    collapsed: v9['collapsed'] === true ? 1 : 0,
    is_deleted: v9['is_deleted'] === true ? 1 : 0,
    in_history: 0,
    added_at: v8Timestamp(v9['added_at']),
    updated_at: v8Timestamp(v9['updated_at']),
    completed_at: v8Timestamp(v9['completed_at']),
    date_added: v8Timestamp(v9['added_at']),
    date_completed: v8Timestamp(v9['completed_at']),
  };
}
