import { randomUUID } from 'node:crypto';
import type { SyncCommand } from '@doable/sync-engine';
import { colorNameOfLegacyLabel, colorNameOfLegacyProject, dueArgFromLegacy, idArg, parseFlag } from '../legacy';
import { duplicateProtectionUuid } from './duplicate-protection';

/**
 * The first generation's commands (`items_to_sync` of the TodoistSync calls, and the single
 * calls addItem, updateItem, deleteItems, completeItems) as the domain's canonical commands, so
 * they run through CommandExecutor like every other generation's: same scopes, validation,
 * limits and idempotency. Argument names follow the v5.3 help. A task placed by the flat list's
 * `item_order`/`indent` becomes the domain's `item_add_flat` / `item_update_flat`, and
 * `item_update_orders_indents` is the domain's command of that name: the domain places them in
 * its tree inside the command's transaction (engine/commands/items/item-flat-place.command.ts),
 * as for Sync v7. What the domain has no field for (`labels` as label ids, `note`) is dropped.
 */

/** A first-generation command as sent. */
export interface LegacyCommand {
  readonly type?: unknown;
  readonly args?: unknown;
  readonly temp_id?: unknown;
  readonly timestamp?: unknown;
}

type Args = Readonly<Record<string, unknown>>;

function objectArgs(value: unknown): Args {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Args) : {};
}

/** Only the keys that were sent (a key sent as undefined is no key). */
function defined(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined));
}

function ids(value: unknown): unknown {
  return Array.isArray(value) ? value.map(idArg) : value;
}

/** A 0/1 flag as a boolean; anything unreadable passed on as sent for the domain to refuse. */
function flagArg(value: unknown): unknown {
  if (value === undefined) return undefined;
  return parseFlag(value) ?? value;
}

/** Text as text; a number (a form gives text, JSON may give numbers) as a number. */
function integerArg(value: unknown): unknown {
  return typeof value === 'string' && /^-?\d{1,9}$/.test(value) ? Number(value) : value;
}

/** Item fields shared by item_add and item_update. */
function itemFields(args: Args, userTimezone: string): Record<string, unknown> {
  return {
    content: args['content'],
    priority: integerArg(args['priority']),
    due: dueArgFromLegacy(args, userTimezone),
    is_collapsed: flagArg(args['collapsed']),
  };
}

/** A legacy colour index as the name the domain stores; anything else passed on for the domain to refuse. */
function colorArg(value: unknown, nameOf: (index: number) => string | undefined): unknown {
  if (value === undefined) return undefined;
  const index = integerArg(value);
  return typeof index === 'number' ? (nameOf(index) ?? value) : value;
}

/** One legacy command's arguments as the domain's command of the same meaning. */
export function canonicalCommand(type: string, legacyArgs: unknown, userTimezone: string): { type: string; args: Record<string, unknown> } {
  const args = objectArgs(legacyArgs);
  switch (type) {
    case 'item_add':
    case 'item_update': {
      const place = defined({ item_order: integerArg(args['item_order']), indent: integerArg(args['indent']) });
      const flat = Object.keys(place).length > 0;
      const target = type === 'item_add' ? { project_id: idArg(args['project_id']) } : { id: idArg(args['id']) };
      return { type: flat ? `${type}_flat` : type, args: defined({ ...itemFields(args, userTimezone), ...target, ...place }) };
    }
    case 'item_update_orders_indents': {
      const map = objectArgs(args['ids_to_orders_indents']);
      const pairs = Object.entries(map).map(([id, pair]) => [id, Array.isArray(pair) ? pair.map(integerArg) : pair] as const);
      return { type, args: { ids_to_orders_indents: Object.fromEntries(pairs) } };
    }
    case 'item_delete':
    case 'item_uncomplete':
      return { type, args: defined({ ids: ids(args['ids']) }) };
    case 'item_complete':
      // `in_history: 0` checked a task off without moving it to history (the help text: "useful when checking off sub tasks").
      return { type, args: defined({ ids: ids(args['ids']), force_history: flagArg(args['in_history']) }) };
    case 'project_add':
    case 'project_update':
      return {
        type,
        args: defined({ id: type === 'project_update' ? idArg(args['id']) : undefined, name: args['name'], color: colorArg(args['color'], colorNameOfLegacyProject), collapsed: flagArg(args['collapsed']) }),
      };
    case 'project_delete':
      return { type, args: defined({ ids: ids(args['ids']) }) };
    case 'label_add':
    case 'label_update':
      return { type, args: defined({ id: type === 'label_update' ? idArg(args['id']) : undefined, name: args['name'], color: colorArg(args['color'], colorNameOfLegacyLabel) }) };
    default:
      // Anything else goes to the domain under its own name: it runs if the domain has such a
      // command and its arguments fit, and is refused with the domain's code otherwise.
      return { type, args: { ...args } };
  }
}

/** The uuid a command runs under: derived from its timestamp (duplicate protection), else fresh. */
function uuidOf(userId: string, command: { type: string; timestamp: unknown; temp_id: string | undefined }, index: number): string {
  const timestamp = typeof command.timestamp === 'number' || typeof command.timestamp === 'string' ? String(command.timestamp) : undefined;
  if (timestamp === undefined || timestamp === '') return randomUUID();
  return duplicateProtectionUuid(userId, { type: command.type, timestamp, temp_id: command.temp_id }, index);
}

/**
 * `items_to_sync` as the domain's commands. A command without a readable `type` becomes one
 * the domain refuses (an empty type), so it is answered, never dropped.
 */
export function canonicalCommands(userId: string, legacy: readonly unknown[], userTimezone: string): SyncCommand[] {
  return legacy.map((entry, index) => {
    const command = objectArgs(entry) as LegacyCommand;
    const type = typeof command.type === 'string' ? command.type : '';
    const tempId = typeof command.temp_id === 'string' && command.temp_id !== '' ? command.temp_id : typeof command.temp_id === 'number' ? String(command.temp_id) : undefined;
    const canonical = canonicalCommand(type, command.args, userTimezone);
    return {
      type: canonical.type,
      uuid: uuidOf(userId, { type, timestamp: command.timestamp, temp_id: tempId }, index),
      args: canonical.args,
      ...(tempId !== undefined ? { temp_id: tempId } : {}),
    };
  });
}
