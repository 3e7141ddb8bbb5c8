import { writeCollaborator, writeCollaboratorState } from '../shared/collaborator.writers';
import { writeCompletedInfo } from '../shared/completed-info.writer';
import { writeApiV1Item } from '../shared/item-fields';
import { writeApiV1Section } from '../shared/section.writers';
import { writeApiV1Project } from '../shared/project.writers';
import { writeApiV1Filter } from '../shared/filter.writers';
import { writeApiV1Label } from '../shared/label.writers';
import { writeNote } from '../shared/note.writer';
import { writeReminder } from '../shared/reminder.writer';
import { writeSyncUser, writeUserSettings } from '../shared/user.writers';
import { writeProjectViewOptionsDefaults, writeViewOptions } from '../shared/view-options.writers';
import type { ObjectWriters } from '../shared/sync-dialect';
import { WORKSPACE_WRITERS } from '../shared/workspace.writers';
import { writeApiV1PlanLimits } from './plan-limits.writer';

/**
 * Unified API v1 (`/api/v1/sync`): string ids, `is_collapsed`, every project key the SDK
 * requires. A personal project never carries `workspace_id` (its presence, even null, makes
 * the SDK validate it as a workspace project): the project table writes a workspace project's
 * keys on workspace projects only.
 */
export const syncApiV1Writers = {
  workspaces: WORKSPACE_WRITERS,
  planLimits: writeApiV1PlanLimits,
  project: writeApiV1Project,
  // Every one of the SDK's 23 task keys, nullable ones present as null (client-constraints §2.1).
  // Added to, not spread: a full sync writes thousands of these.
  item: writeApiV1Item,
  section: writeApiV1Section,
  label: writeApiV1Label,
  filter: writeApiV1Filter,
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
