import { colorNameOfLegacyLabel, colorNameOfLegacyProject } from './legacy-colors';
import { idArg, parseFlag } from './legacy-values';

/**
 * Sync v7 and v6 commands as the domain's canonical commands (fedoranimus/todoist-api
 * `source/includes/sync/v7/*.md`; v6's commands, phpandroidgladiator/todoist-api, take the same
 * arguments). Nothing here reads storage: placing a task by `item_order` and `indent`, or naming
 * labels by id, is done by the domain's own commands (item_add_flat, item_update_flat,
 * item_update_orders_indents) inside the request's transaction; this only renames.
 */

type Args = Readonly<Record<string, unknown>>;

/** Only the keys that were sent. */
function defined(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined));
}

function ids(value: unknown): unknown {
  return Array.isArray(value) ? value.map(idArg) : value;
}

/** A 0/1 flag as a boolean; anything unreadable passed on as sent, for the domain to refuse. */
function flagArg(value: unknown): unknown {
  return value === undefined ? undefined : (parseFlag(value) ?? value);
}

function colorArg(value: unknown, nameOf: (index: number) => string | undefined): unknown {
  if (typeof value === 'string' && /^\d{1,2}$/.test(value)) return nameOf(Number(value)) ?? value;
  return typeof value === 'number' ? (nameOf(value) ?? value) : value;
}

/**
 * v7's due arguments as the domain's `due`: `date_string` (in `date_lang`) wins; empty text or
 * null clears. `due_date_utc` alone (the docs require `date_string` with it, so old clients rarely
 * send it alone) is taken as that instant, fixed (guess: the old server re-read it in the user's
 * zone; a dialect has no zone to read it in, and the 23:59 all-day marker is therefore not honoured).
 */
export function oldSyncDueArg(args: Args): unknown {
  const text = args['date_string'];
  if (text !== undefined) {
    if (text === null || (typeof text === 'string' && text.trim() === '')) return null;
    const lang = typeof args['date_lang'] === 'string' && args['date_lang'] !== '' ? args['date_lang'] : undefined;
    return defined({ string: typeof text === 'number' ? String(text) : text, lang });
  }
  const utc = args['due_date_utc'];
  if (utc === undefined) return undefined;
  if (utc === null || utc === '') return null;
  return { date: typeof utc === 'string' && /^\d{4}-\d{1,2}-\d{1,2}T\d{2}:\d{2}$/.test(utc) ? `${utc}:00Z` : utc };
}

/** The task fields item_add and item_update share. */
function itemFields(args: Args): Record<string, unknown> {
  return {
    content: args['content'],
    priority: args['priority'],
    due: oldSyncDueArg(args),
    day_order: args['day_order'],
    is_collapsed: flagArg(args['collapsed']),
    responsible_uid: args['responsible_uid'] === '' ? null : idArg(args['responsible_uid']),
    label_ids: ids(args['labels']),
    item_order: args['item_order'],
    indent: args['indent'],
  };
}

/** One v7 command as the domain's; types the domain has under the same name and arguments pass as sent. */
export function canonicalOldSyncCommand(type: string, args: Args): { type: string; args: Record<string, unknown> } {
  switch (type) {
    case 'item_add': {
      const fields = defined({ ...itemFields(args), project_id: idArg(args['project_id']) });
      // Only a task placed by flat position, or labelled by id, needs the flat command (it reads the project).
      const flat = fields['item_order'] !== undefined || fields['indent'] !== undefined || fields['label_ids'] !== undefined;
      return { type: flat ? 'item_add_flat' : 'item_add', args: fields };
    }
    case 'item_update': {
      const fields = defined({ ...itemFields(args), id: idArg(args['id']) });
      const flat = fields['item_order'] !== undefined || fields['indent'] !== undefined || fields['label_ids'] !== undefined;
      return { type: flat ? 'item_update_flat' : 'item_update', args: fields };
    }
    case 'item_delete':
    case 'item_uncomplete':
    case 'project_delete':
    case 'project_archive':
    case 'project_unarchive':
      return { type, args: defined({ ids: ids(args['ids']), id: idArg(args['id']) }) };
    case 'item_complete':
      return { type, args: defined({ ids: ids(args['ids']), force_history: flagArg(args['force_history']) }) };
    case 'item_move': {
      // v7: `{project_items: {from_project: [ids]}, to_project}`; the domain moves each id to the project's end.
      const groups = args['project_items'];
      const moved = groups !== null && typeof groups === 'object' && !Array.isArray(groups) ? Object.values(groups as Args).flatMap((value): unknown[] => (Array.isArray(value) ? (value as unknown[]) : [value])) : groups;
      return { type, args: defined({ ids: ids(moved), project_id: idArg(args['to_project']) }) };
    }
    case 'item_update_orders_indents':
    case 'item_update_day_orders':
    case 'label_update_orders':
    case 'filter_update_orders':
      return { type, args: { ...args } };
    case 'item_close':
      return { type, args: defined({ id: idArg(args['id']) }) };
    case 'item_update_date_complete':
      return { type, args: defined({ id: idArg(args['id']), due: oldSyncDueArg(args), is_forward: flagArg(args['is_forward']) }) };
    case 'project_add': {
      const fields = defined({ name: args['name'], color: colorArg(args['color'], colorNameOfLegacyProject), is_collapsed: flagArg(args['collapsed']), item_order: args['item_order'], indent: args['indent'] });
      return { type: fields['item_order'] !== undefined || fields['indent'] !== undefined ? 'project_add_flat' : type, args: fields };
    }
    case 'project_update':
      // A project's `indent`/`item_order` here is not moved (guess: v7 clients moved projects with project_update_orders_indents).
      return {
        type,
        args: defined({ id: idArg(args['id']), name: args['name'], color: colorArg(args['color'], colorNameOfLegacyProject), is_collapsed: flagArg(args['collapsed']) }),
      };
    case 'project_update_orders_indents':
      return { type, args: { ...args } };
    case 'label_add':
    case 'label_update':
    case 'filter_add':
    case 'filter_update':
      return { type, args: defined({ ...args, id: idArg(args['id']), color: colorArg(args['color'], colorNameOfLegacyLabel) }) };
    case 'note_add':
    case 'note_update':
      return {
        type,
        args: defined({
          id: idArg(args['id']),
          item_id: idArg(args['item_id']),
          // A task comment names its task; v7 clients also sent its project, which the domain derives.
          project_id: args['item_id'] === undefined ? idArg(args['project_id']) : undefined,
          content: args['content'],
          file_attachment: args['file_attachment'],
          uids_to_notify: ids(args['uids_to_notify']),
        }),
      };
    case 'reminder_add':
    case 'reminder_update':
      return {
        type,
        args: defined({
          id: idArg(args['id']),
          item_id: idArg(args['item_id']),
          notify_uid: idArg(args['notify_uid']),
          // Kept by the domain and written back as sent (email, mobile, push).
          service: args['service'],
          type: args['type'],
          due: oldSyncDueArg(args),
          minute_offset: args['mm_offset'],
          name: args['name'],
          loc_lat: args['loc_lat'],
          loc_long: args['loc_long'],
          loc_trigger: args['loc_trigger'],
          radius: args['radius'],
        }),
      };
    default:
      return { type, args: defined({ ...args, id: idArg(args['id']) }) };
  }
}
