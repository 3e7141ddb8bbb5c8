import { DomainError } from '@doable/shared-errors';

/**
 * The scalar conventions v8 and older share: 0/1 for booleans, JSON numbers for ids, and (v6)
 * CamelCase names for the top-level keys of a sync answer.
 */

/** A boolean as v8 and older wrote most of them. */
export function flag(value: boolean): 0 | 1 {
  return value ? 1 : 0;
}

/**
 * A 0/1 (or true/false) a client sent, as a boolean; undefined when it is neither (the caller
 * decides whether that is a refusal or "not sent"). Form fields arrive as text: "1", "0",
 * "true", "false".
 */
export function parseFlag(value: unknown): boolean | undefined {
  if (value === true || value === 1 || value === '1' || value === 'true') return true;
  if (value === false || value === 0 || value === '0' || value === 'false') return false;
  return undefined;
}

/**
 * An id as the integer-id generations wrote it. Ids are bigint text (MAX_OBJECT_ID is 2^63 - 1),
 * but the sequences start near 10^10, so a JSON number holds them exactly; one past 2^53 could
 * not be written without changing it, and is refused rather than rounded to another object's id.
 */
export function integerId(id: string): number {
  const digits = id.length;
  // Up to 15 digits, no leading zero, is always exact (under 10^15 < 2^53), read digit by
  // digit: a v7 full sync of 5,000 tasks writes about 25,000 ids, and Number() then String()
  // each cost it 5-7 ms (bench S7). Anything else takes the full check.
  if (digits === 0 || digits > 15 || (digits > 1 && id.charCodeAt(0) === ZERO)) return checkedIntegerId(id);
  let value = 0;
  for (let at = 0; at < digits; at++) {
    const digit = id.charCodeAt(at) - ZERO;
    if (digit < 0 || digit > 9) return checkedIntegerId(id);
    value = value * 10 + digit;
  }
  return value;
}

const ZERO = 0x30;

function checkedIntegerId(id: string): number {
  const value = Number(id);
  if (!Number.isSafeInteger(value) || String(value) !== id) {
    throw new DomainError('INTERNAL', 'An id does not fit this API version\'s integer ids');
  }
  return value;
}

/** integerId for an optional reference (`parent_id`, `responsible_uid`): null stays null. */
export function integerIdOrNull(id: string | null): number | null {
  return id === null ? null : integerId(id);
}

/**
 * An id a client sent as a JSON number or text, as the domain's id text; temp ids (any other
 * text, e.g. `$123`) pass through for the executor to resolve. A number that is not a safe
 * integer cannot be an id the server wrote, and is passed on as text that resolves to nothing.
 */
export function idArg(value: unknown): unknown {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? String(value) : `${value}`;
  return value;
}

/**
 * Sync v6 answered with CamelCase top-level keys (v7 moved to the snake_case names of today:
 * sync-interface §9; v5.3 docs list `Projects`, `Items`, `TempIdMapping`, `DayOrdersTimestamp`...).
 */
export const V6_RESPONSE_KEYS: Readonly<Record<string, string>> = {
  collaborators: 'Collaborators',
  collaborator_states: 'CollaboratorStates',
  day_orders: 'DayOrders',
  day_orders_timestamp: 'DayOrdersTimestamp',
  filters: 'Filters',
  items: 'Items',
  labels: 'Labels',
  live_notifications: 'LiveNotifications',
  live_notifications_last_read: 'LiveNotificationsLastRead',
  notes: 'Notes',
  projects: 'Projects',
  reminders: 'Reminders',
  settings_notifications: 'SettingsNotifications',
  sync_status: 'SyncStatus',
  temp_id_mapping: 'TempIdMapping',
  user: 'User',
  user_id: 'UserId',
};

/** A sync answer's top-level keys in v6's names; keys v6 did not rename (`seq_no`, `seq_no_global`) stay. */
export function withV6Keys(envelope: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(envelope).map(([key, value]) => [V6_RESPONSE_KEYS[key] ?? key, value]));
}
