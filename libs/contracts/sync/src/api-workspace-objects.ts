import type { WorkspacePlanType } from '@doable/contracts-plans';
import type { WorkspaceRole } from './workspace-roles';

/**
 * The api/v1 objects around workspaces that sync answers the rest service with, and rest passes
 * on as they are (sdk 17 WorkspaceSchema, WorkspaceUserSchema, WorkspaceInvitationSchema,
 * WorkspacePlanDetailsSchema, JoinWorkspaceResultSchema, FolderSchema; contracts-rest's
 * api-v1-account-objects.schema.ts describes the same keys for the OpenAPI document). Type
 * aliases, as in api-objects.ts.
 */

/** A plan's limits (the keys of user_plan_limits' plan info), or null. */
export type ApiPlanInfo = Readonly<Record<string, unknown>> | null;

export type ApiWorkspace = {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly logo_big: string | null;
  readonly logo_medium: string | null;
  readonly logo_small: string | null;
  readonly logo_s640: string | null;
  readonly creator_id: string;
  readonly created_at: string;
  readonly is_deleted: boolean;
  readonly is_collapsed: boolean;
  /** The reader's role; none in a tombstone of a workspace they left. */
  readonly role?: WorkspaceRole;
  readonly plan: WorkspacePlanType;
  readonly limits: { readonly current: ApiPlanInfo; readonly next: ApiPlanInfo };
  /** The join link's code; empty for a guest. */
  readonly invite_code: string;
  readonly is_link_sharing_enabled: boolean;
  readonly is_guest_allowed: boolean;
  readonly current_active_projects: number;
  readonly current_member_count: number;
  readonly member_count_by_type: { readonly admin_count: number; readonly member_count: number; readonly guest_count: number };
  readonly current_template_count: number;
  readonly domain_name: string | null;
  readonly domain_discovery: boolean;
  readonly restrict_email_domains: boolean;
  readonly admin_sorting_applied: boolean;
  readonly project_sort_preference: string | null;
  readonly default_collaborators: { readonly predefined_group_ids: readonly string[]; readonly user_ids: readonly string[] };
  readonly properties: Readonly<Record<string, unknown>>;
  /** The addresses of its open invitations, for an admin; null for everyone else. */
  readonly pending_invitations: readonly string[] | null;
  /** The same instant as `created_at` (older clients read this name). */
  readonly date_created: string;
};

export type ApiWorkspaceUser = {
  readonly user_id: string;
  readonly workspace_id: string;
  readonly user_email: string;
  readonly full_name: string;
  readonly timezone: string;
  readonly role: WorkspaceRole;
  readonly image_id: string | null;
  readonly is_deleted: boolean;
};

export type ApiWorkspaceInvitation = {
  readonly id: string;
  readonly inviter_id: string;
  readonly user_email: string;
  readonly workspace_id: string;
  readonly role: WorkspaceRole;
};

export type ApiWorkspacePlanDetails = {
  readonly workspace_id: string;
  readonly current_member_count: number;
  readonly current_plan: 'Business' | 'Starter';
  readonly current_plan_status: 'Active' | 'Downgraded' | 'Cancelled' | 'NeverSubscribed';
  readonly downgrade_at: string | null;
  readonly current_active_projects: number;
  readonly maximum_active_projects: number;
  /** Doable bills nothing: always empty. */
  readonly price_list: readonly never[];
  readonly is_trialing: boolean;
  readonly trial_ends_at: string | null;
  readonly cancel_at_period_end: boolean;
  readonly has_trialed: boolean;
  /** Doable bills nothing: always null. */
  readonly plan_price: null;
  readonly has_billing_portal: boolean;
  readonly has_billing_portal_switch_to_annual: boolean;
};

/** A member's membership (sdk 17 JoinWorkspaceResult): what joining answers, and a member's role change. */
export type ApiWorkspaceMembership = {
  readonly custom_sorting_applied: boolean;
  readonly project_sort_preference: string;
  readonly role: WorkspaceRole;
  readonly user_id: string;
  readonly workspace_id: string;
};

export type ApiFolder = {
  readonly id: string;
  readonly name: string;
  readonly workspace_id: string;
  readonly is_deleted: boolean;
  readonly default_order: number;
  readonly child_order: number;
};
