import { DomainError } from '@doable/shared-errors';
import type { SyncCommand, SyncRequest } from '@doable/sync-engine';
import { parseSyncRequest } from '../shared/sync-request.parser';
import { colorNameOfV8, parseFlag } from '../legacy';

/**
 * The resource types of Sync v8 (sync-interface §4.1: "the subset up to user_plan_limits without
 * reminders_location"; the v8 draft's list in `_sync.md` plus `sections` and `user_plan_limits`,
 * which §9 says v8 added). `all` means these, never a v9/v1-only type; any other name is unknown.
 */
export const V8_RESOURCE_TYPES = [
  'labels', 'projects', 'items', 'notes', 'sections', 'filters', 'reminders', 'locations', 'user', 'live_notifications', 'collaborators',
  'user_settings', 'notification_settings', 'user_plan_limits',
] as const;
const V8_TYPES: ReadonlySet<string> = new Set(V8_RESOURCE_TYPES);

/**
 * A v8 request's resource types as canonical names: `all` spelled out as the v8 list, and
 * `reminders` read with `reminders_location` (v8's `reminders` carried location reminders too;
 * the dialect writes both in one list). Exclusions stay exclusions.
 */
export function v8ResourceTypes(requested: readonly string[]): string[] {
  const types: string[] = [];
  for (const name of requested) {
    const bare = name.startsWith('-') ? name.slice(1) : name;
    if (name === 'all') types.push(...V8_RESOURCE_TYPES);
    else if (V8_TYPES.has(bare)) types.push(name);
    else throw new DomainError('INVALID_ARGUMENT_VALUE', `Unknown resource type: ${name}`, { argument: 'resource_types' });
  }
  return types.flatMap((name) => (name === 'reminders' || name === '-reminders' ? [name, `${name}_location`] : [name]));
}

type ArgsTranslation = (args: Record<string, unknown>) => Record<string, unknown>;

/** An integer colour 30..49 as its name; anything else is left for the command to refuse. */
const colorAsName: ArgsTranslation = (args) => {
  const color = args['color'];
  const name = typeof color === 'number' ? colorNameOfV8(color) : undefined;
  return name === undefined ? args : { ...args, color: name };
};

/** 0/1 flags as booleans; a value that is neither stays, for the command to refuse. */
function flagsAsBooleans(...names: string[]): ArgsTranslation {
  return (args) => {
    const out = { ...args };
    for (const name of names) {
      const value = parseFlag(out[name]);
      if (value !== undefined) out[name] = value;
    }
    return out;
  };
}

/** An argument v8 named otherwise, under its canonical name (unless that was sent too), its value converted. */
function renamed(from: string, to: string, value: (sent: unknown) => unknown = (sent) => sent): ArgsTranslation {
  return (args) => {
    if (args[from] === undefined || args[to] !== undefined) return args;
    const { [from]: sent, ...rest } = args;
    return { ...rest, [to]: value(sent) };
  };
}

/** v8 `collapsed` (0/1) is the canonical `is_collapsed`. */
const collapsedAsIsCollapsed = renamed('collapsed', 'is_collapsed', (sent) => parseFlag(sent) ?? sent);

/** A v8 task's `labels` are label ids (v8 docs `_items.md`: "a list of label ids such as [2324,2525]"): the canonical `label_ids`. */
const labelIdsOfLabels = renamed('labels', 'label_ids');

/** v8 `date_completed` is `completed_at` (public-api-facts §1.2). */
const completedAt = renamed('date_completed', 'completed_at');

/**
 * A reminder's minutes: v8 documented `minute_offset` on reminder_add, but wrote the reminder
 * with `mm_offset`; a client that sends back what it read sends `mm_offset` (accepted as the same).
 */
const minuteOffset = renamed('mm_offset', 'minute_offset');

/** v8 marks one notification (`id`, V8D `_livenotifications.md`); the canonical command takes `ids`. */
const idAsIds = renamed('id', 'ids', (sent) => [sent]);

function chain(...steps: ArgsTranslation[]): ArgsTranslation {
  return (args) => steps.reduce((out, step) => step(out), args);
}

/**
 * What each v8 command's arguments become. Ids may stay integers (the commands take ids as
 * numbers or text), and so may the `ids` arrays of item_delete/complete/uncomplete and
 * project_delete/archive/unarchive (the commands take them and answer per id).
 */
const ARGS: Readonly<Record<string, ArgsTranslation>> = {
  project_add: chain(colorAsName, collapsedAsIsCollapsed, flagsAsBooleans('is_favorite')),
  project_update: chain(colorAsName, collapsedAsIsCollapsed, flagsAsBooleans('is_favorite')),
  item_add: chain(labelIdsOfLabels, collapsedAsIsCollapsed, flagsAsBooleans('auto_reminder', 'auto_parse_labels')),
  item_update: chain(labelIdsOfLabels, collapsedAsIsCollapsed),
  item_complete: chain(completedAt, flagsAsBooleans('force_history')),
  section_update: collapsedAsIsCollapsed,
  label_add: chain(colorAsName, flagsAsBooleans('is_favorite')),
  label_update: chain(colorAsName, flagsAsBooleans('is_favorite')),
  filter_add: chain(colorAsName, flagsAsBooleans('is_favorite')),
  filter_update: chain(colorAsName, flagsAsBooleans('is_favorite')),
  reminder_add: minuteOffset,
  reminder_update: minuteOffset,
  live_notifications_mark_read: idAsIds,
  live_notifications_mark_unread: idAsIds,
};

/**
 * A comment on a project (`project_id` and no `item_id`): sync-interface §2 says v8 kept project
 * comments for paid users. Newer generations let every plan with `comments` add them.
 */
function isProjectComment(command: SyncCommand): boolean {
  return command.type === 'note_add' && (command.args['item_id'] ?? null) === null && (command.args['project_id'] ?? null) !== null;
}

export function v8Command(command: SyncCommand): SyncCommand {
  const translate = Object.hasOwn(ARGS, command.type) ? ARGS[command.type] : undefined;
  const translated = translate ? { ...command, args: translate(command.args) } : command;
  return isProjectComment(translated) ? { ...translated, paidOnly: 'comments' } : translated;
}

/**
 * A v8 request as the engine's canonical request. The body is read as v9's (form or JSON, the
 * `token` form field is the gateway's); its resource types and command arguments are
 * translated; rendering tasks needs the user's labels (ids), which the read fetches in its
 * snapshot whenever tasks are written.
 */
export function parseSyncV8Request(body: unknown): SyncRequest {
  const request = parseSyncRequest(body);
  return {
    syncToken: request.syncToken,
    resourceTypes: request.syncToken === null ? request.resourceTypes : v8ResourceTypes(request.resourceTypes),
    commands: request.commands.map(v8Command),
    readNeeds: { labels: true },
  };
}
