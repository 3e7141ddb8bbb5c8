import { fitsBigint } from '@doable/contracts-common';
import { DomainError } from '@doable/shared-errors';
import type { SyncRequest, SyncResult } from '@doable/sync-engine';
import { encodeSyncToken } from '@doable/sync-read';
import type { UserProfile } from '@doable/sync-domain';
import {
  canonicalOldSyncCommands,
  EMPTY_OLD_SYNC_CONTEXT,
  integerId,
  OLD_SYNC_READ_NEEDS,
  oldResourceTypes,
  oldSyncRenderParams,
  oldSyncWriters,
  oldSyncWritersFor,
  renderOldSync,
  withV6Keys,
  writeOldSyncUser,
} from '../legacy';
import { parseSyncRequest } from '../shared/sync-request.parser';
import { tzInfo } from '../shared/wire-format';
import type { DialectContext, ObjectWriters, SyncDialect } from '../shared/sync-dialect';

/**
 * API v6 at `/API/v6/sync` (phpandroidgladiator/todoist-api `source/includes/_workflow.md`,
 * `_users.md`): v7's objects and commands, read by an increasing `seq_no` instead of a sync token
 * (`0` = everything), answered with CamelCase top-level keys (`Items`, `SyncStatus`...), `seq_no`
 * and `seq_no_global`, `UserId`, no `full_sync`, and a user with `timezone` and `tz_offset`
 * instead of `tz_info`.
 */

/**
 * Names left out of a v6 read: `day_orders` and `share_invitations` were v6 names with no
 * resource of their own here (day orders come with `items`, invitations are live
 * notifications); `locations` came with v7 (v6's `all` did not have it).
 */
const NOT_READ_IN_V6 = new Set(['day_orders', 'share_invitations', 'locations']);

function jsonArray(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value; // the shared parser refuses it with its own coded error
  }
}

/**
 * `seq_no` as the engine's sync token: `0` is a full read; any other is the change version the
 * client last saw, bound to this user like every token. The live-notification cursor is not in
 * a seq_no: a v6 incremental read answers live notifications from the start (guess: v6 clients
 * keyed them by id and de-duplicated; `LiveNotificationsLastRead` still marks what was read).
 */
function syncTokenOf(seqNo: unknown, context: DialectContext): string | undefined {
  if (seqNo === undefined || seqNo === null || seqNo === '') return undefined;
  const text = typeof seqNo === 'number' && Number.isSafeInteger(seqNo) ? String(seqNo) : seqNo;
  if (typeof text !== 'string' || !/^\d{1,19}$/.test(text) || !fitsBigint(text)) {
    throw new DomainError('INVALID_ARGUMENT_VALUE', 'seq_no must be a whole number (0 for everything)', { argument: 'seq_no' });
  }
  return /^0+$/.test(text) ? '*' : encodeSyncToken(context.userId, { version: BigInt(text).toString(), notificationCursor: 0, notificationMark: '0' });
}

export function parseV6Request(rawBody: unknown, context: DialectContext): SyncRequest {
  const body = (rawBody && typeof rawBody === 'object' && !Array.isArray(rawBody) ? rawBody : {}) as Record<string, unknown>;
  const syncToken = syncTokenOf(body['seq_no'], context);
  if (syncToken === undefined && body['commands'] === undefined) {
    throw new DomainError('ARGUMENT_MISSING', 'Required argument is missing: seq_no', { argument: 'seq_no' });
  }
  // resource_types was optional in v6: everything unless narrowed.
  const types = jsonArray(body['resource_types'] ?? ['all']);
  const resourceTypes = Array.isArray(types) ? oldResourceTypes(types).filter((name) => !NOT_READ_IN_V6.has(name as string)) : types;
  const parsed = parseSyncRequest({ commands: body['commands'], ...(syncToken === undefined ? {} : { sync_token: syncToken, resource_types: resourceTypes }) });
  const { commands, commandTypes } = canonicalOldSyncCommands(parsed.commands);
  return {
    ...parsed,
    commands,
    readNeeds: OLD_SYNC_READ_NEEDS,
    renderParams: { ...oldSyncRenderParams(commandTypes, body['day_orders_timestamp']), user_id: context.userId },
  };
}

/** The v6 user: v7's, with `timezone` and `tz_offset` `[gmt_string, hours, minutes, is_dst]` instead of `tz_info`. */
export function writeV6User(user: UserProfile, websocketUrl?: string, avatarOrigin?: string): Record<string, unknown> {
  const { tz_info: _tzInfo, ...rest } = writeOldSyncUser(user, websocketUrl, avatarOrigin);
  const tz = tzInfo(user.timezone);
  return { ...rest, timezone: tz.timezone, tz_offset: [tz.gmt_string, tz.hours, tz.minutes, tz.is_dst] };
}

/**
 * v6's objects where they differ from v7's (v6 docs `_items.md`, `_projects.md`): a task carries
 * `due_date` (the same instant as `due_date_utc`) and `has_notifications`, and no `date_lang`; a
 * project carries its `user_id` and `archived_date`/`archived_timestamp`.
 */
export function v6Writers(writers: ObjectWriters): ObjectWriters {
  return {
    ...writers,
    user: writeV6User,
    item: (row) => {
      const { date_lang: _dateLang, ...written } = writers.item(row);
      // Guess: the reminders are not read with the tasks; 0 until a client reads them.
      return { ...written, due_date: written['due_date_utc'], has_notifications: 0 };
    },
    project: (row) => ({ ...writers.project(row), user_id: integerId(row.owner_id), archived_date: null, archived_timestamp: 0 }),
  };
}

export function renderV6(result: SyncResult, request?: SyncRequest): Record<string, unknown> {
  const body = renderOldSync(result, request, v6Writers(oldSyncWritersFor(result)));
  const read = result.read;
  delete body['sync_token'];
  delete body['full_sync'];
  if ('live_notifications_last_read_id' in body) {
    body['live_notifications_last_read'] = body['live_notifications_last_read_id'];
    delete body['live_notifications_last_read_id'];
  }
  const userId = request?.renderParams?.['user_id'];
  if (typeof userId === 'string') body['user_id'] = integerId(userId);
  if (read) {
    // The version the read is current to: what the client sends back as its next seq_no.
    body['seq_no'] = Number(read.version);
    body['seq_no_global'] = Number(read.version);
  }
  return withV6Keys(body);
}

export const syncV6Dialect: SyncDialect = {
  name: 'sync-v6',
  parseRequest: parseV6Request,
  render: renderV6,
  writers: v6Writers(oldSyncWriters(EMPTY_OLD_SYNC_CONTEXT)),
};
