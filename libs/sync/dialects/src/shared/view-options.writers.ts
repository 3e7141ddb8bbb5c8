import type { ProjectViewOptionsDefaults, ViewOptions, ViewSettings } from '@doable/sync-domain';

/**
 * The settings as the SDKs validate them (client-schemas.md, SDK 17 SyncResponseSchema and the
 * older ones): `view_mode` is left out while unset, as the older SDKs accept it only as a value.
 */
function writeSettings(settings: ViewSettings): Record<string, unknown> {
  return {
    ...(settings.view_mode === null ? {} : { view_mode: settings.view_mode }),
    grouped_by: settings.grouped_by,
    sorted_by: settings.sorted_by,
    sort_order: settings.sort_order,
    filtered_by: settings.filtered_by,
    show_completed_tasks: settings.show_completed_tasks,
    calendar_settings: settings.calendar_settings,
    property_settings: settings.property_settings,
  };
}

/** The view a row is for: `object_id` only when the view shows one object. */
function viewKey(row: ViewOptions): Record<string, unknown> {
  return row.object_id === null ? { view_type: row.view_type } : { view_type: row.view_type, object_id: row.object_id };
}

/** A view option, or its tombstone (the key and `is_deleted: true`, which every SDK's tombstone schema accepts). */
export function writeViewOptions(row: ViewOptions): Record<string, unknown> {
  if (row.is_deleted) return { ...viewKey(row), is_deleted: true };
  return { ...viewKey(row), ...writeSettings(row), is_deleted: false };
}

export function writeProjectViewOptionsDefaults(row: ProjectViewOptionsDefaults): Record<string, unknown> {
  if (row.is_deleted) return { project_id: row.project_id, is_deleted: true };
  return { project_id: row.project_id, ...writeSettings(row), is_deleted: false };
}
