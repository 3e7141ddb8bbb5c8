import type { z } from 'zod';
import type { ApiV1CommentKey } from './fields/comment-fields';
import type { WireObject, WireValue } from './fields/field-line';
import type { ApiV1LabelKey } from './fields/label-fields';
import type { ApiV1ProjectKey } from './fields/project-fields';
import type { ApiV1SectionKey } from './fields/section-fields';
import type { TASK_FIELDS } from './fields/task-fields';
import type { CollaboratorRole } from './project-roles';
import type { dueApiV1 } from './fields/wire-schemas';

/**
 * The api/v1 objects the sync service answers with (client-constraints §2.1-2.6): the one shape
 * the resource dialects map from. Ids are strings; timestamps are RFC 3339 strings in UTC.
 * Each type has the keys sync's api/v1 writers write, no more and no fewer (the writers are
 * annotated with them). Type aliases, not interfaces: an alias is assignable to the
 * `Record<string, unknown>` that sync's dialect writers and webhook bodies take.
 */

/** The due object of api/v1 (and v9), as its wire schema says. */
export type ApiDue = WireValue<z.output<typeof dueApiV1>>;

/**
 * The api/v1 task, from the task field table (issue #46): a key for each line with an api/v1 key,
 * typed by the line's schema. Types only, so the web app reads it too (`@doable/contracts-web-wire`).
 */
export type ApiTask = WireObject<typeof TASK_FIELDS, 'apiV1'>;

export type ApiProject = {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly color: string;
  readonly parent_id: string | null;
  readonly child_order: number;
  readonly default_order: number;
  readonly is_collapsed: boolean;
  readonly is_favorite: boolean;
  readonly is_archived: boolean;
  readonly is_deleted: boolean;
  readonly is_frozen: boolean;
  readonly is_shared: boolean;
  readonly can_assign_tasks: boolean;
  readonly view_style: string;
  readonly created_at: string | null;
  readonly updated_at: string | null;
  readonly inbox_project?: boolean;
  // A workspace project's keys (sdk 17 WorkspaceProject); a personal project has none of them.
  readonly workspace_id?: string;
  readonly folder_id?: string | null;
  readonly is_invite_only?: boolean;
  readonly status?: string;
  readonly access?: { readonly visibility: string };
  readonly collaborator_role_default?: string;
  readonly is_link_sharing_enabled?: boolean;
  readonly role?: string | null;
  /** Comments on the project itself (REST v1/v2 `comment_count`); every project sync answers has it, api/v1 drops it. */
  readonly note_count?: number;
};

export type ApiSection = {
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
};

export type ApiLabel = {
  readonly id: string;
  readonly name: string;
  readonly color: string;
  /** The Sync API's name for `order`; sync writes both, api/v1 REST answers `order`. */
  readonly item_order: number;
  readonly is_deleted: boolean;
  readonly is_favorite: boolean;
  readonly order: number | null;
};

/** A comment's file or link: `resource_type`, and the keys its kind has (image, audio, ...). */
export type ApiAttachment = {
  readonly resource_type: string;
  readonly file_name?: string | null;
  readonly file_size?: number | null;
  readonly file_type?: string | null;
  readonly file_url?: string | null;
  readonly file_duration?: number | null;
  readonly upload_state?: 'pending' | 'completed' | null;
  readonly image?: string | null;
  readonly image_width?: number | null;
  readonly image_height?: number | null;
  readonly url?: string | null;
  readonly title?: string | null;
  readonly tn_l?: readonly [string, number, number];
  readonly tn_m?: readonly [string, number, number];
  readonly tn_s?: readonly [string, number, number];
};

export type ApiComment = {
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
};

export type ApiCollaborator = {
  readonly id: string;
  readonly name: string;
  readonly email: string;
};

/**
 * An open invitation to a project (Doable's own `GET /api/v1/projects/{id}/invitations`; no
 * Todoist client reads it): named as WorkspaceInvitationSchema names a workspace's (`user_email`,
 * `inviter_id`), with when it was sent. Never its secret: that reaches only the invitee.
 */
export type ApiProjectInvitation = {
  readonly id: string;
  readonly project_id: string;
  readonly inviter_id: string;
  readonly user_email: string;
  readonly role: CollaboratorRole;
  /** When it was sent (or last sent again), `YYYY-MM-DDTHH:MM:SS.ffffffZ`. */
  readonly created_at: string;
};

/** A shared label (a name on tasks) as sync answers it; REST lists the names themselves. */
export type ApiSharedLabel = { readonly name: string };

type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;
/**
 * The objects above written by hand have their tables' api/v1 keys, no more and no fewer (a
 * project also the comment count a read adds): a compile error otherwise.
 */
export type ApiObjectsFollowTheTables = [
  Holds<Exactly<ApiV1ProjectKey | 'note_count', keyof ApiProject>>,
  Holds<Exactly<ApiV1SectionKey, keyof ApiSection>>,
  Holds<Exactly<ApiV1LabelKey, keyof ApiLabel>>,
  Holds<Exactly<ApiV1CommentKey, keyof ApiComment>>,
];
