import { WORKSPACE_ROLES } from '@doable/contracts-sync';
import { z } from 'zod';

/**
 * The api/v1 REST objects outside the task tree: workspaces and what hangs off them (members,
 * invitations, plan details, memberships, folders), the current user and their productivity
 * statistics. The keys and types are the sync service's writers' (workspace.writers.ts,
 * workspace-object-queries.ts, user.writers.ts, productivity-stats.service.ts), which follow
 * sdk 17's schemas (client-schemas.md › SyncWorkspaceSchema, FolderSchema, CurrentUserSchema,
 * SyncUserSchema; the sdk's WorkspaceSchema, WorkspaceUserSchema, WorkspaceInvitationSchema,
 * WorkspacePlanDetailsSchema, JoinWorkspaceResultSchema, ProductivityStatsSchema). Strict, as
 * the task objects are: a key a writer starts sending without being described here fails the
 * e2e response check.
 */

const id = z.string();
const timestamp = z.string().describe('RFC 3339 in UTC, YYYY-MM-DDTHH:MM:SS.ffffffZ.');
const day = z.string().describe('YYYY-MM-DD.');
const workspaceRole = z.enum(WORKSPACE_ROLES);
const zeroOne = z.union([z.literal(0), z.literal(1)]);
const planInfo = z.record(z.string(), z.unknown()).nullable().describe('A plan’s limits (the keys of user_plan_limits’ plan info), or null.');

export const workspaceApiV1 = z
  .strictObject({
    id,
    name: z.string(),
    description: z.string(),
    logo_big: z.string().nullable(),
    logo_medium: z.string().nullable(),
    logo_small: z.string().nullable(),
    logo_s640: z.string().nullable(),
    creator_id: id,
    created_at: timestamp,
    date_created: timestamp.describe('The same instant as created_at (older clients read this name).'),
    is_deleted: z.boolean(),
    is_collapsed: z.boolean(),
    role: workspaceRole.optional().describe('The reader’s role.'),
    plan: z.enum(['STARTER', 'BUSINESS']),
    limits: z.strictObject({ current: planInfo, next: planInfo }),
    invite_code: z.string().describe('The join link’s code; empty for a guest.'),
    is_link_sharing_enabled: z.boolean(),
    is_guest_allowed: z.boolean(),
    current_active_projects: z.int().min(0),
    current_member_count: z.int().min(0),
    member_count_by_type: z.strictObject({ admin_count: z.int().min(0), member_count: z.int().min(0), guest_count: z.int().min(0) }),
    current_template_count: z.int().min(0),
    domain_name: z.string().nullable(),
    domain_discovery: z.boolean(),
    restrict_email_domains: z.boolean(),
    admin_sorting_applied: z.boolean(),
    project_sort_preference: z.string().nullable(),
    default_collaborators: z.strictObject({ predefined_group_ids: z.array(z.string()), user_ids: z.array(id) }),
    properties: z.record(z.string(), z.unknown()),
    pending_invitations: z.array(z.string()).nullable().describe('The addresses of its open invitations, for an admin; null for everyone else.'),
  })
  .meta({ id: 'WorkspaceApiV1' });

export const workspaceUserApiV1 = z
  .strictObject({
    user_id: id,
    workspace_id: id,
    user_email: z.string(),
    full_name: z.string(),
    timezone: z.string(),
    role: workspaceRole,
    image_id: z.string().nullable(),
    is_deleted: z.boolean(),
  })
  .meta({ id: 'WorkspaceUserApiV1' });

export const workspaceInvitationApiV1 = z
  .strictObject({ id, inviter_id: id, user_email: z.string(), workspace_id: id, role: workspaceRole })
  .meta({ id: 'WorkspaceInvitationApiV1' });

export const workspacePlanDetailsApiV1 = z
  .strictObject({
    workspace_id: id,
    current_member_count: z.int().min(0),
    current_plan: z.enum(['Business', 'Starter']),
    current_plan_status: z.enum(['Active', 'Downgraded', 'Cancelled', 'NeverSubscribed']),
    downgrade_at: z.string().nullable(),
    current_active_projects: z.int().min(0),
    maximum_active_projects: z.number(),
    price_list: z.array(z.strictObject({ currency: z.string().optional(), amount: z.number().optional(), interval: z.string().optional(), formatted: z.string().optional() })),
    is_trialing: z.boolean(),
    trial_ends_at: z.string().nullable(),
    cancel_at_period_end: z.boolean(),
    has_trialed: z.boolean(),
    plan_price: z.strictObject({ currency: z.string(), amount: z.union([z.number(), z.string()]), interval: z.string().optional() }).nullable(),
    has_billing_portal: z.boolean(),
    has_billing_portal_switch_to_annual: z.boolean(),
  })
  .meta({ id: 'WorkspacePlanDetailsApiV1' });

/** A member's membership (sdk 17 JoinWorkspaceResult): what joining answers, and a member's role change. */
export const workspaceMembershipApiV1 = z
  .strictObject({ custom_sorting_applied: z.boolean(), project_sort_preference: z.string(), role: workspaceRole, user_id: id, workspace_id: id })
  .meta({ id: 'WorkspaceMembershipApiV1' });

export const folderApiV1 = z
  .strictObject({ id, name: z.string(), workspace_id: id, is_deleted: z.boolean(), default_order: z.int(), child_order: z.int() })
  .meta({ id: 'FolderApiV1' });

/**
 * `GET /api/v1/user`: the sync `user` object plus the completion counters (sdk 17
 * CurrentUserSchema requires a subset of it; `websocket_url` is the push channel, with a token
 * for this user, at the origin the caller reached).
 */
export const userApiV1 = z
  .strictObject({
    id,
    email: z.string(),
    full_name: z.string(),
    activated_user: z.boolean(),
    auto_reminder: z.int(),
    business_account_id: z.string().nullable(),
    daily_goal: z.int(),
    date_format: zeroOne,
    dateist_lang: z.string().nullable(),
    days_off: z.array(z.int().min(1).max(7)),
    feature_identifier: z.string(),
    features: z.strictObject({
      karma_disabled: z.boolean(),
      restriction: z.int(),
      karma_vacation: z.boolean(),
      dateist_lang: z.string().nullable(),
      beta: zeroOne,
      has_push_reminders: z.boolean(),
      dateist_inline_disabled: z.boolean(),
    }),
    has_magic_number: z.boolean(),
    has_password: z.boolean(),
    image_id: z.string().nullable(),
    // Only with an avatar (the SDK's user schema takes them as optional, never null).
    avatar_big: z.url().optional(),
    avatar_medium: z.url().optional(),
    avatar_small: z.url().optional(),
    avatar_s640: z.url().optional(),
    inbox_project_id: id,
    is_celebrations_enabled: z.boolean(),
    is_premium: z.boolean(),
    joinable_workspace: z.strictObject({ workspace_id: id, workspace_name: z.string(), member_count: z.int() }).nullable(),
    joined_at: timestamp,
    getting_started_guide_projects: z.array(z.strictObject({ onboarding_use_case: z.string(), project_id: id, completed: z.boolean(), closed: z.boolean() })).nullable(),
    karma: z.number(),
    karma_trend: z.string(),
    lang: z.string(),
    mfa_enabled: z.boolean(),
    next_week: z.int().min(1).max(7),
    premium_status: z.enum(['not_premium', 'current_personal_plan', 'legacy_personal_plan', 'teams_business_member']),
    premium_until: timestamp.nullable(),
    share_limit: z.int(),
    sort_order: z.int(),
    start_day: z.int().min(1).max(7),
    start_page: z.string(),
    theme_id: z.string(),
    time_format: zeroOne,
    tz_info: z.strictObject({ timezone: z.string(), hours: z.int(), minutes: z.int(), is_dst: zeroOne, gmt_string: z.string() }),
    unique_prefix: z.int(),
    verification_status: z.string(),
    websocket_url: z.string().min(1).describe('The push channel (a WebSocket URL with a token for this user), at the origin the request reached.'),
    weekend_start_day: z.int().min(1).max(7),
    weekly_goal: z.int(),
    completed_count: z.int().min(0),
    completed_today: z.int().min(0),
  })
  .meta({ id: 'UserApiV1' });

const streak = z.strictObject({ count: z.int().min(0), start: z.string(), end: z.string() });
const completions = { items: z.array(z.strictObject({ id, completed: z.int().min(0) })), total_completed: z.int().min(0) };

/** `GET /api/v1/tasks/completed/stats`: the last 7 days and 4 weeks of completions by project, goals and streaks, karma. */
export const productivityStatsApiV1 = z
  .strictObject({
    completed_count: z.int().min(0),
    days_items: z.array(z.strictObject({ date: day, ...completions })),
    week_items: z.array(z.strictObject({ from: day, to: day, ...completions })),
    goals: z.strictObject({
      daily_goal: z.int(),
      weekly_goal: z.int(),
      ignore_days: z.array(z.int().min(1).max(7)),
      vacation_mode: zeroOne,
      karma_disabled: zeroOne,
      user: z.string(),
      user_id: id,
      current_daily_streak: streak,
      last_daily_streak: streak,
      max_daily_streak: streak,
      current_weekly_streak: streak,
      last_weekly_streak: streak,
      max_weekly_streak: streak,
    }),
    karma: z.number(),
    karma_graph_data: z.array(z.strictObject({ date: z.string(), karma_avg: z.number() })),
    karma_last_update: z.number(),
    karma_trend: z.string(),
    karma_update_reasons: z.array(z.looseObject({})),
    project_colors: z.record(z.string(), z.string()),
  })
  .meta({ id: 'ProductivityStatsApiV1' });
