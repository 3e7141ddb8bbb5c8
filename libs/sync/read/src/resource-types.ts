import { DomainError } from '@doable/shared-errors';

/** Resource type names of the Sync API (v1 list; sync-interface §4.1). */
export const RESOURCE_TYPES = [
  'labels', 'projects', 'items', 'notes', 'sections', 'filters', 'reminders', 'reminders_location', 'locations', 'user',
  'live_notifications', 'collaborators', 'user_settings', 'notification_settings', 'user_plan_limits', 'completed_info',
  'stats', 'workspaces', 'workspace_users', 'workspace_filters', 'view_options', 'project_view_options_defaults', 'role_actions',
  // Not in the spec's list, but in every SDK's sync response schema (sdk 10.5, 11, 17 `folders`).
  'folders',
] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

/** `all` is every type except those that must be asked for by name. */
const NOT_IN_ALL: ReadonlySet<ResourceType> = new Set(['reminders_location']);
const KNOWN: ReadonlySet<string> = new Set(RESOURCE_TYPES);

/**
 * Which types a request selects: names, `all`, and `-name` exclusions (applied last).
 * `workspace_users` never comes with a full sync (it is loaded elsewhere first).
 */
export function selectResourceTypes(requested: readonly string[], fullSync: boolean): Set<ResourceType> {
  const selected = new Set<ResourceType>();
  const excluded = new Set<string>();
  for (const name of requested) {
    if (name === 'all') RESOURCE_TYPES.filter((type) => !NOT_IN_ALL.has(type)).forEach((type) => selected.add(type));
    else if (name.startsWith('-')) excluded.add(name.slice(1));
    else if (KNOWN.has(name)) selected.add(name as ResourceType);
    else throw new DomainError('INVALID_ARGUMENT_VALUE', `Unknown resource type: ${name}`, { argument: 'resource_types' });
  }
  for (const name of excluded) selected.delete(name as ResourceType);
  if (fullSync) selected.delete('workspace_users');
  return selected;
}
