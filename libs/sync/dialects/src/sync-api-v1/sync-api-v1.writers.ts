import type { FilterRow, LabelRow, ProjectRow, SectionRow } from '@doable/sync-domain';
import type { ApiLabel, ApiProject, ApiSection } from '@doable/contracts-sync';
import { writeCollaborator, writeCollaboratorState } from '../shared/collaborator.writers';
import { writeCompletedInfo } from '../shared/completed-info.writer';
import { timestampOrNull, writeApiV1Item } from '../shared/item-fields';
import { writeFilter, writeLabel } from '../shared/label-filter.writers';
import { writeNote } from '../shared/note.writer';
import { writeReminder } from '../shared/reminder.writer';
import { writeSyncUser, writeUserSettings } from '../shared/user.writers';
import { writeProjectViewOptionsDefaults, writeViewOptions } from '../shared/view-options.writers';
import { wireTimestampOf } from '../shared/wire-format';
import type { ObjectWriters } from '../shared/sync-dialect';
import { WORKSPACE_WRITERS } from '../shared/workspace.writers';
import { writeApiV1PlanLimits } from './plan-limits.writer';

type WorkspaceProjectKey = 'workspace_id' | 'folder_id' | 'is_invite_only' | 'status' | 'access' | 'collaborator_role_default' | 'is_link_sharing_enabled' | 'role';

/** The keys sdk 17's WorkspaceProject schema requires beside a personal project's. */
function workspaceProjectFields(project: ProjectRow, workspaceId: string): Required<Pick<ApiProject, WorkspaceProjectKey>> {
  return {
    workspace_id: workspaceId,
    folder_id: project.folder_id,
    is_invite_only: project.is_invite_only,
    status: project.status,
    access: { visibility: project.visibility },
    collaborator_role_default: project.collaborator_role_default,
    is_link_sharing_enabled: project.is_link_sharing_enabled,
    role: project.role ?? null,
  };
}

/**
 * Unified API v1 (`/api/v1/sync`): string ids, `is_collapsed`, every project key the SDK
 * requires. A personal project never carries `workspace_id` (its presence, even null, makes
 * the SDK validate it as a workspace project).
 */
export const syncApiV1Writers = {
  workspaces: WORKSPACE_WRITERS,
  planLimits: writeApiV1PlanLimits,
  project: (project: ProjectRow): ApiProject => ({
    id: project.id,
    name: project.name,
    description: project.description,
    color: project.color,
    parent_id: project.parent_id,
    child_order: project.child_order,
    default_order: 0,
    is_collapsed: project.is_collapsed,
    is_favorite: project.is_favorite,
    is_archived: project.is_archived,
    is_deleted: project.is_deleted,
    is_frozen: false,
    is_shared: project.shared,
    // Tasks can be assigned to the other members of a shared project.
    can_assign_tasks: project.shared,
    view_style: project.view_style,
    created_at: wireTimestampOf(project.created_at),
    updated_at: wireTimestampOf(project.updated_at),
    ...(project.inbox_project ? { inbox_project: true } : {}),
    ...(project.workspace_id === null ? {} : workspaceProjectFields(project, project.workspace_id)),
  }),
  // Every one of the SDK's 23 task keys, nullable ones present as null (client-constraints §2.1).
  // Added to, not spread: a full sync writes thousands of these.
  item: writeApiV1Item,
  section: (section: SectionRow): ApiSection => ({
    id: section.id,
    user_id: section.user_id,
    project_id: section.project_id,
    name: section.name,
    description: section.description,
    section_order: section.section_order,
    is_collapsed: section.is_collapsed,
    is_archived: section.is_archived,
    is_deleted: section.is_deleted,
    archived_at: timestampOrNull(section.archived_at),
    added_at: timestampOrNull(section.added_at),
    updated_at: timestampOrNull(section.updated_at),
  }),
  /**
   * The v1 SDKs' label schema requires `order` (nullable), and the unified API documents
   * `item_order`: both are written (the SDK drops keys it does not know).
   */
  label: (label: LabelRow): ApiLabel => Object.assign(writeLabel(label), { order: label.item_order }),
  filter: (filter: FilterRow) => {
    const fields = writeFilter(filter);
    fields['description'] = filter.description;
    return fields;
  },
  note: writeNote,
  reminder: writeReminder,
  /**
   * A place as an object: every @doist/todoist-sdk that speaks v1 (10.5, 11, 17) validates
   * `locations` as `record<string, unknown>[]` and rejects v9's array entry (client-schemas.md).
   */
  location: (place) => ({ name: place.name, loc_lat: place.loc_lat, loc_long: place.loc_long }),
  completedInfo: writeCompletedInfo,
  viewOptions: writeViewOptions,
  projectViewOptionsDefaults: writeProjectViewOptionsDefaults,
  user: writeSyncUser,
  userSettings: writeUserSettings,
  collaborator: writeCollaborator,
  collaboratorState: writeCollaboratorState,
} satisfies ObjectWriters;
