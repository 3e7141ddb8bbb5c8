import { storedInteger } from '@doable/contracts-common';
import { z } from 'zod';
import { DEFAULT_VIEW_SETTINGS, type ViewSettings } from '@doable/sync-domain';
import { flag, idArg } from '../../command-args';

/** The values the official SDK (17) knows for each setting; the older SDKs validate subsets of them. */
export const VIEW_TYPES = [
  'TODAY', 'UPCOMING', 'PROJECT', 'LABEL', 'FILTER', 'WORKSPACE_FILTER', 'SEARCH', 'TEMPLATE_PREVIEW', 'TASK_DETAIL', 'AUTOMATION', 'ASSIGNED', 'ASSIGNED_TO_ME', 'OVERDUE',
  'WORKSPACE_OVERVIEW',
] as const;
const viewMode = z.enum(['LIST', 'BOARD', 'CALENDAR', 'TABLE']);
const groupedBy = z.enum(['ASSIGNEE', 'ADDED_DATE', 'DUE_DATE', 'DEADLINE', 'LABEL', 'PRIORITY', 'PROJECT', 'WORKSPACE']);
const sortedBy = z.enum(['MANUAL', 'ALPHABETICALLY', 'ASSIGNEE', 'DUE_DATE', 'DEADLINE', 'ADDED_DATE', 'LABEL', 'PRIORITY', 'PROJECT', 'WORKSPACE']);
const sortOrder = z.enum(['ASC', 'DESC']);

const calendarSettings = z.object({
  layout: z.enum(['WEEK', 'MONTH']).nullable().optional(),
  visible_day_count: z.union([z.literal(1), z.literal(3), z.literal(7)]).nullable().optional(),
  color: z.enum(['PRIORITY', 'LABEL', 'PROJECT']).nullable().optional(),
});

const propertyKey = z.string().min(1).max(200);
/** A JSON merge patch on the saved property settings: `null` removes what it names. */
const propertySettingsPatch = z.object({
  order: z.array(propertyKey).max(200).nullable().optional(),
  properties: z
    .record(propertyKey, z.object({ is_hidden: z.boolean().nullable().optional(), width: storedInteger.min(0).max(10_000).nullable().optional() }).nullable())
    .refine((properties) => Object.keys(properties).length <= 200, 'At most 200 properties')
    .nullable()
    .optional(),
});

/** The settings a view_options_set or project_view_options_defaults_set may change; absent ones stay as they are. */
export const viewSettingsArgs = {
  view_mode: viewMode.nullable().optional(),
  grouped_by: groupedBy.nullable().optional(),
  sorted_by: sortedBy.nullable().optional(),
  sort_order: sortOrder.nullable().optional(),
  filtered_by: z.string().max(1_024).nullable().optional(),
  show_completed_tasks: flag.optional(),
  calendar_settings: calendarSettings.nullable().optional(),
  property_settings: propertySettingsPatch.nullable().optional(),
};
export type ViewSettingsArgs = z.infer<z.ZodObject<typeof viewSettingsArgs>>;

export const viewKeyArgs = { view_type: z.enum(VIEW_TYPES), object_id: idArg.optional() };

type Json = unknown;

/** RFC 7396: objects merge into the target, anything else replaces it, `null` removes its key. */
export function mergePatch(target: Json, patch: Json): Json {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const merged: Record<string, Json> = target !== null && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Record<string, Json>) } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) delete merged[key];
    else merged[key] = mergePatch(merged[key], value);
  }
  return merged;
}

/** Drops the keys a client left out (zod keeps them as undefined), so stored JSON holds only what was said. */
function withoutUndefined(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined));
}

/** The settings after a set: each given one replaces the current; property settings are merged (SDK 17's documented behaviour). */
export function applyViewSettings(current: ViewSettings | undefined, args: ViewSettingsArgs): ViewSettings {
  const base = current ?? DEFAULT_VIEW_SETTINGS;
  const pick = <T>(given: T | undefined, kept: T): T => (given === undefined ? kept : given);
  return {
    view_mode: pick(args.view_mode, base.view_mode),
    grouped_by: pick(args.grouped_by, base.grouped_by),
    sorted_by: pick(args.sorted_by, base.sorted_by),
    sort_order: pick(args.sort_order, base.sort_order),
    filtered_by: pick(args.filtered_by, base.filtered_by),
    show_completed_tasks: pick(args.show_completed_tasks, base.show_completed_tasks),
    calendar_settings: args.calendar_settings === undefined ? base.calendar_settings : args.calendar_settings && withoutUndefined(args.calendar_settings),
    property_settings:
      args.property_settings === undefined ? base.property_settings : args.property_settings && (mergePatch(base.property_settings ?? {}, args.property_settings) as Record<string, unknown>),
  };
}
