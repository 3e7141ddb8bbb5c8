import type { ResourceType } from '@doable/sync-read';
import type { SyncResult } from '@doable/sync-engine';
import { SYNC_DIALECTS } from '../src/sync-dialects';
import { errands, inbox, read, renderedProjects } from '../testing/sync-read.fixture';

/** The dialects that write this envelope and the SDKs' user as they are (v8, v7 and v6 write their own: their dialect specs). */
const CURRENT_DIALECTS = [SYNC_DIALECTS['sync-v9'], SYNC_DIALECTS['sync-api-v1']];

describe.each(CURRENT_DIALECTS)('$name renders the shared envelope', (dialect) => {
  it('writes only the requested resource types', () => {
    const body = dialect.render({ read: read(['projects', 'user']), tempIdMapping: {} });
    expect(Object.keys(body).sort()).toEqual(['full_sync', 'full_sync_date_utc', 'projects', 'sync_token', 'temp_id_mapping', 'user']);
  });

  it.each<[ResourceType, string[]]>([
    ['items', ['items', 'day_orders']],
    ['notes', ['notes', 'project_notes']],
    ['collaborators', ['collaborators', 'collaborator_states']],
    ['labels', ['labels']],
    ['reminders_location', ['reminders_location']],
    ['workspace_users', ['workspace_users']],
    ['live_notifications', ['live_notifications']],
    ['user_settings', ['user_settings']],
    ['notification_settings', ['settings_notifications']],
    ['stats', ['stats']],
  ])('writes %s as %j on a full sync', (type, keys) => {
    const body = dialect.render({ read: read([type]), tempIdMapping: {} });
    const envelope = ['full_sync', 'full_sync_date_utc', 'sync_token', 'temp_id_mapping'];
    expect(Object.keys(body).sort()).toEqual([...envelope, ...keys].sort());
  });

  it('writes the notification settings per type and service: the chosen ones, and the defaults (push on, email off)', () => {
    const settings = dialect.render({ read: read(['notification_settings']), tempIdMapping: {} })['settings_notifications'] as Record<string, unknown>;
    expect(settings['note_added']).toEqual({ notify_email: true, notify_push: true });
    expect(settings['item_assigned']).toEqual({ notify_email: false, notify_push: true });
    // Not on an incremental sync in which they did not change.
    expect(dialect.render({ read: read(['notification_settings'], { fullSync: false, userSettings: undefined }), tempIdMapping: {} })).not.toHaveProperty('settings_notifications');
  });

  it('marks a full sync and dates it in the wire timestamp form', () => {
    const body = dialect.render({ read: read(['projects']), tempIdMapping: {} });
    expect(body['full_sync']).toBe(true);
    expect(body['sync_token']).toBe('token-1');
    expect(body['full_sync_date_utc']).toBe('2024-05-06T07:08:09.123000Z');
  });

  it('leaves full_sync_date_utc and the full-sync-only resources out of an incremental sync', () => {
    const body = dialect.render(
      { read: read(['projects', 'user_settings', 'notification_settings', 'stats'], { fullSync: false, syncToken: 'token-2', userSettings: undefined }), tempIdMapping: {} }
    );
    expect(body['full_sync']).toBe(false);
    expect(body['sync_token']).toBe('token-2');
    expect(Object.keys(body).sort()).toEqual(['full_sync', 'projects', 'sync_token', 'temp_id_mapping']);
  });

  it('writes the stored user_settings on an incremental sync when they changed', () => {
    const body = dialect.render({ read: read(['user_settings'], { fullSync: false }), tempIdMapping: {} });
    expect(body['user_settings']).toMatchObject({ reminder_push: true, reminder_desktop: false, legacy_pricing: 0, navigation: { counts_shown: true, features: [] } });
  });

  it('leaves the user out when it did not change, even if requested', () => {
    const body = dialect.render({ read: read(['user', 'projects'], { fullSync: false, user: undefined }), tempIdMapping: {} });
    expect(body).not.toHaveProperty('user');
  });

  it('writes an empty projects array when nothing changed', () => {
    const body = dialect.render({ read: read(['projects'], { fullSync: false, projects: [] }), tempIdMapping: {} });
    expect(body['projects']).toEqual([]);
  });

  it('writes projects in the order given', () => {
    const body = dialect.render({ read: read(['projects']), tempIdMapping: {} });
    expect(renderedProjects(body).map((row) => row['id'])).toEqual([inbox.id, errands.id]);
  });

  it('marks only the inbox with inbox_project', () => {
    const [inboxRow, errandsRow] = renderedProjects(dialect.render({ read: read(['projects']), tempIdMapping: {} }));
    expect(inboxRow['inbox_project']).toBe(true);
    expect(errandsRow).not.toHaveProperty('inbox_project');
  });

  it('always writes temp_id_mapping, also without a read', () => {
    expect(dialect.render({ tempIdMapping: {} })).toEqual({ temp_id_mapping: {} });
    expect(dialect.render({ read: read(['projects']), tempIdMapping: {} })['temp_id_mapping']).toEqual({});
  });

  it('writes sync_status and temp_id_mapping when commands ran', () => {
    const failure = { error: 'Invalid argument value', error_code: 20, error_extra: { argument: 'name' }, error_tag: 'INVALID_ARGUMENT_VALUE', http_code: 400 };
    const result: SyncResult = { syncStatus: { u1: 'ok', u2: failure }, tempIdMapping: { t1: '2203306142' } };
    expect(dialect.render(result)).toEqual({ temp_id_mapping: { t1: '2203306142' }, sync_status: { u1: 'ok', u2: failure } });
  });

  it('leaves sync_status out when no command ran', () => {
    const body = dialect.render({ read: read(['projects', 'user']), tempIdMapping: {} });
    expect(body).not.toHaveProperty('sync_status');
  });

  it('writes live notifications and the last read id when the notifications service answered', () => {
    const notification = { id: '9', created_at: '2024-05-01T00:00:00.000000Z', from_uid: null, notification_key: 'k', notification_type: 'note_added', seq_no: 3, is_unread: true, is_deleted: false };
    const body = dialect.render(
      { read: read(['live_notifications'], { notifications: { live_notifications: [notification], last_read_id: '8', cursor: 3 } }), tempIdMapping: {} }
    );
    expect(body['live_notifications']).toEqual([notification]);
    expect(body['live_notifications_last_read_id']).toBe('8');
  });
});

/** The REQUIRED keys of the SDK's SyncUserSchema (client-schemas.md, identical in sdk 10.5, 11 and 17). */
type Check = (value: unknown) => boolean;
const isString: Check = (value) => typeof value === 'string';
const isBoolean: Check = (value) => typeof value === 'boolean';
const isInt: Check = (value) => Number.isInteger(value);
const isNumber: Check = (value) => typeof value === 'number' && Number.isFinite(value);
const isDateString: Check = (value) => typeof value === 'string' && !Number.isNaN(new Date(value).getTime());
const oneOf = (...allowed: unknown[]): Check => (value) => allowed.includes(value);
const nullable = (check: Check): Check => (value) => value === null || check(value);
const isObject: Check = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
const isIntArray: Check = (value) => Array.isArray(value) && value.every((item) => Number.isInteger(item));
const weekday = oneOf(1, 2, 3, 4, 5, 6, 7);

const SYNC_USER_REQUIRED: Record<string, Check> = {
  id: isString,
  email: isString,
  full_name: isString,
  activated_user: isBoolean,
  auto_reminder: isInt,
  business_account_id: nullable(isString),
  daily_goal: isInt,
  date_format: oneOf(0, 1),
  days_off: isIntArray,
  feature_identifier: isString,
  features: isObject,
  has_magic_number: isBoolean,
  has_password: isBoolean,
  image_id: nullable(isString),
  inbox_project_id: isString,
  is_celebrations_enabled: isBoolean,
  is_premium: isBoolean,
  joinable_workspace: nullable(isObject),
  joined_at: isDateString,
  getting_started_guide_projects: nullable(Array.isArray),
  karma: isNumber,
  karma_trend: isString,
  lang: isString,
  next_week: weekday,
  premium_status: oneOf('not_premium', 'current_personal_plan', 'legacy_personal_plan', 'teams_business_member'),
  premium_until: nullable(isDateString),
  share_limit: isInt,
  sort_order: isInt,
  start_day: weekday,
  start_page: isString,
  theme_id: isString,
  time_format: oneOf(0, 1),
  tz_info: isObject,
  unique_prefix: isInt,
  verification_status: isString,
  websocket_url: isString,
  weekend_start_day: isInt,
  weekly_goal: isInt,
};

const FEATURES_REQUIRED: Record<string, Check> = {
  karma_disabled: isBoolean,
  restriction: isInt,
  karma_vacation: isBoolean,
  dateist_lang: (value) => value !== null && value !== undefined,
  beta: oneOf(0, 1),
  has_push_reminders: isBoolean,
  dateist_inline_disabled: isBoolean,
};

const TZ_INFO_REQUIRED: Record<string, Check> = {
  timezone: isString,
  hours: isInt,
  minutes: isInt,
  is_dst: oneOf(0, 1),
  gmt_string: isString,
};

/** Every key the schema requires that is missing or of the wrong type, as `path: value`. */
function schemaProblems(object: Record<string, unknown>, required: Record<string, Check>, prefix = ''): string[] {
  return Object.entries(required)
    .filter(([key, check]) => !(key in object) || !check(object[key]))
    .map(([key]) => `${prefix}${key}: ${JSON.stringify(object[key])}`);
}

describe.each(CURRENT_DIALECTS)('$name user', (dialect) => {
  const body = dialect.render({ read: read(['user']), tempIdMapping: {} });
  const written = body['user'] as Record<string, unknown>;

  it('has every key SyncUserSchema requires, with the right type', () => {
    expect(schemaProblems(written, SYNC_USER_REQUIRED)).toEqual([]);
    expect(schemaProblems(written['features'] as Record<string, unknown>, FEATURES_REQUIRED, 'features.')).toEqual([]);
    expect(schemaProblems(written['tz_info'] as Record<string, unknown>, TZ_INFO_REQUIRED, 'tz_info.')).toEqual([]);
  });

  it('writes the optional keys it sends with the types the SDK allows', () => {
    expect(written['dateist_lang'] === null || typeof written['dateist_lang'] === 'string').toBe(true);
    expect(typeof written['mfa_enabled']).toBe('boolean');
  });

  it("writes the profile's own values", () => {
    expect(written).toMatchObject({
      id: '42',
      email: 'ada@example.com',
      full_name: 'Ada Lovelace',
      inbox_project_id: inbox.id,
      days_off: [6, 7],
      has_password: true,
      joined_at: '2023-12-24T10:00:00.000000Z',
      lang: 'en',
      weekly_goal: 25,
    });
    expect((written['tz_info'] as Record<string, unknown>)['timezone']).toBe('Europe/Berlin');
  });
});
