import type { FolderRow, WorkspaceFilterRow, WorkspaceMember, WorkspaceRow } from '@doable/sync-domain';
import { type ApiFolder, type ApiWorkspace, type ApiWorkspaceUser, seesWorkspaceField } from '@doable/contracts-sync';
import { wireTimestampOf } from './wire-format';

/**
 * Workspaces, their members, folders and filters as v9 and api/v1 write them: every key the
 * SDKs' sync schemas require (sdk 10.5, 11 and 17 SyncWorkspaceSchema, workspace_users,
 * FolderSchema, WorkspaceFilterSchema), ids as strings.
 */
/** The Sync API's workspace: api/v1 REST's but for a guest's `invite_code` (null here) and the older `date_created`. */
export type SyncWorkspaceObject = Omit<ApiWorkspace, 'invite_code' | 'date_created'> & { readonly invite_code: string | null };

export function writeWorkspace(workspace: WorkspaceRow): SyncWorkspaceObject {
  return {
    id: workspace.id,
    name: workspace.name,
    description: workspace.description,
    logo_big: null,
    logo_medium: null,
    logo_small: null,
    logo_s640: null,
    creator_id: workspace.creator_id,
    created_at: wireTimestampOf(workspace.created_at),
    is_deleted: workspace.is_deleted,
    is_collapsed: workspace.is_collapsed,
    // A tombstone of a workspace the reader left has no role (the schema takes none, not null).
    ...(workspace.role ? { role: workspace.role } : {}),
    plan: workspace.plan_type,
    limits: { current: workspace.limits?.current ?? null, next: workspace.limits?.next ?? null },
    // The join link's code is for those who may invite (not guests): the read policy's field rule.
    invite_code: seesWorkspaceField('workspaces', 'invite_code', workspace.role) ? workspace.invite_code : null,
    is_link_sharing_enabled: workspace.is_link_sharing_enabled,
    is_guest_allowed: workspace.is_guest_allowed,
    current_active_projects: workspace.current_active_projects,
    current_member_count: workspace.admin_count + workspace.member_count + workspace.guest_count,
    member_count_by_type: { admin_count: workspace.admin_count, member_count: workspace.member_count, guest_count: workspace.guest_count },
    current_template_count: 0,
    domain_name: workspace.domain_name,
    domain_discovery: workspace.domain_discovery,
    restrict_email_domains: workspace.restrict_email_domains,
    admin_sorting_applied: false,
    project_sort_preference: null,
    default_collaborators: { predefined_group_ids: [], user_ids: [] },
    properties: {},
    // Who is invited and has not answered yet: the admins' to manage (sdk 17 pendingInvitations, optional and nullable).
    pending_invitations: workspace.pending_invitations,
  };
}

export function writeWorkspaceUser(member: WorkspaceMember): ApiWorkspaceUser {
  return {
    user_id: member.user_id,
    workspace_id: member.workspace_id,
    user_email: member.email,
    full_name: member.full_name,
    timezone: member.timezone,
    role: member.role,
    image_id: member.image_id ?? null,
    is_deleted: member.is_deleted,
  };
}

export function writeFolder(folder: FolderRow): ApiFolder {
  return {
    id: folder.id,
    name: folder.name,
    workspace_id: folder.workspace_id,
    is_deleted: folder.is_deleted,
    default_order: folder.default_order,
    child_order: folder.child_order,
  };
}

export function writeWorkspaceFilter(filter: WorkspaceFilterRow): Record<string, unknown> {
  return {
    id: filter.id,
    workspace_id: filter.workspace_id,
    name: filter.name,
    query: filter.query,
    description: filter.description,
    color: filter.color,
    item_order: filter.item_order,
    is_deleted: filter.is_deleted,
    is_favorite: filter.is_favorite,
    is_frozen: false,
    creator_uid: filter.creator_id,
    updater_uid: filter.updater_id,
    created_at: wireTimestampOf(filter.created_at),
    updated_at: wireTimestampOf(filter.updated_at),
  };
}

/** The workspace writers of the generations that have workspaces (v9 and api/v1). */
export const WORKSPACE_WRITERS = { workspace: writeWorkspace, workspaceUser: writeWorkspaceUser, folder: writeFolder, workspaceFilter: writeWorkspaceFilter } as const;
