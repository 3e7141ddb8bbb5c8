/**
 * The api/v1 objects the sync service answers with (client-constraints §2.1-2.6): the one shape
 * the resource dialects map from. Ids are strings; timestamps are RFC 3339 strings in UTC.
 */

export interface ApiDue {
  readonly date: string;
  readonly string: string;
  readonly is_recurring: boolean;
  readonly timezone: string | null;
  readonly lang: string | null;
  readonly datetime?: string | null;
}

export interface ApiTask {
  readonly id: string;
  readonly user_id: string;
  readonly project_id: string;
  readonly section_id: string | null;
  readonly parent_id: string | null;
  readonly added_by_uid: string | null;
  readonly assigned_by_uid: string | null;
  readonly responsible_uid: string | null;
  readonly labels: readonly string[];
  readonly deadline: { readonly date: string; readonly lang: string } | null;
  readonly duration: { readonly amount: number; readonly unit: 'minute' | 'day' } | null;
  readonly checked: boolean;
  readonly is_deleted: boolean;
  readonly added_at: string | null;
  readonly completed_at: string | null;
  readonly updated_at: string | null;
  readonly due: ApiDue | null;
  readonly priority: number;
  readonly child_order: number;
  readonly content: string;
  readonly description: string;
  readonly note_count: number;
  readonly day_order: number;
  readonly is_collapsed: boolean;
}

export interface ApiProject {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly color: string;
  readonly parent_id: string | null;
  readonly child_order: number;
  readonly is_collapsed: boolean;
  readonly is_favorite: boolean;
  readonly is_archived: boolean;
  readonly is_deleted: boolean;
  readonly is_shared: boolean;
  readonly view_style: string;
  readonly created_at: string | null;
  readonly updated_at: string | null;
  readonly inbox_project?: boolean;
  /** Comments on the project itself (REST v1/v2 `comment_count`). */
  readonly note_count?: number;
}

export interface ApiSection {
  readonly id: string;
  readonly user_id: string;
  readonly project_id: string;
  readonly name: string;
  readonly description: string | null;
  readonly section_order: number;
  readonly is_collapsed: boolean;
  readonly is_archived: boolean;
  readonly is_deleted: boolean;
  readonly archived_at: string | null;
  readonly added_at: string | null;
  readonly updated_at: string | null;
}

export interface ApiLabel {
  readonly id: string;
  readonly name: string;
  readonly color: string;
  readonly order: number | null;
  readonly is_favorite: boolean;
  readonly is_deleted?: boolean;
}

export interface ApiAttachment {
  readonly resource_type: string;
  readonly file_name?: string | null;
  readonly file_type?: string | null;
  readonly file_url?: string | null;
  readonly [key: string]: unknown;
}

export interface ApiComment {
  readonly id: string;
  /** Exactly one of `item_id` and `project_id` is present. */
  readonly item_id?: string;
  readonly project_id?: string;
  readonly posted_uid: string;
  readonly content: string;
  readonly file_attachment: ApiAttachment | null;
  readonly uids_to_notify: readonly string[] | null;
  readonly reactions: Record<string, readonly string[]> | null;
  readonly is_deleted: boolean;
  readonly posted_at: string;
}

export interface ApiCollaborator {
  readonly id: string;
  readonly name: string;
  readonly email: string;
}

/** Shared labels are plain names. */
export type ApiSharedLabel = string;
