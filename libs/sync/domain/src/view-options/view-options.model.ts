/** How a view shows tasks: the settings a view option and a project's defaults share. */
export interface ViewSettings {
  view_mode: string | null;
  grouped_by: string | null;
  sorted_by: string | null;
  sort_order: string | null;
  filtered_by: string | null;
  show_completed_tasks: boolean;
  calendar_settings: Record<string, unknown> | null;
  property_settings: Record<string, unknown> | null;
}

/** One user's options for one view: a view type, and the object it shows (a project, label, filter...) if any. */
export interface ViewOptions extends ViewSettings {
  id: string;
  user_id: string;
  view_type: string;
  object_id: string | null;
  is_deleted: boolean;
  version: string;
}

/** The view settings a project's members start from. Deleted with its project. */
export interface ProjectViewOptionsDefaults extends ViewSettings {
  id: string;
  project_id: string;
  is_deleted: boolean;
  version: string;
}

/** Settings of a view nobody has set anything for. */
export const DEFAULT_VIEW_SETTINGS: Readonly<ViewSettings> = {
  view_mode: null,
  grouped_by: null,
  sorted_by: null,
  sort_order: null,
  filtered_by: null,
  show_completed_tasks: false,
  calendar_settings: null,
  property_settings: null,
};

const SETTINGS_COLUMNS = `view_mode, grouped_by, sorted_by, sort_order, filtered_by, show_completed_tasks, calendar_settings, property_settings`;
export const VIEW_OPTIONS_COLUMNS = `id::text, user_id::text, view_type, object_id, ${SETTINGS_COLUMNS}, is_deleted, version::text`;
export const PROJECT_VIEW_DEFAULTS_COLUMNS = `id::text, project_id::text, ${SETTINGS_COLUMNS}, is_deleted, version::text`;
export const SETTINGS_JSON_COLUMNS: ReadonlySet<string> = new Set(['calendar_settings', 'property_settings']);
