import { writeCollaborator, writeCollaboratorState } from '../shared/collaborator.writers';
import { writeCompletedInfo } from '../shared/completed-info.writer';
import { writeV9Item } from '../shared/item-fields';
import { writeV9Section } from '../shared/section.writers';
import { writeV9Project } from '../shared/project.writers';
import { writeV9Filter } from '../shared/filter.writers';
import { writeV9Label } from '../shared/label.writers';
import { writeV9Note } from '../shared/note.writer';
import { writeV9Reminder } from '../shared/reminder.writer';
import { writeSyncUser, writeUserSettings } from '../shared/user.writers';
import { writeProjectViewOptionsDefaults, writeViewOptions } from '../shared/view-options.writers';
import type { ObjectWriters } from '../shared/sync-dialect';
import { WORKSPACE_WRITERS } from '../shared/workspace.writers';

/**
 * Sync v9 (`/sync/v9/sync`): string ids, `collapsed`, `shared`, no timestamps on projects.
 * Comments, reminders, completed_info, view options and the user are written as api/v1 writes
 * them (view options are a v1 resource; v9 clients ignore them).
 */
export const syncV9Writers: ObjectWriters = {
  workspaces: WORKSPACE_WRITERS,
  project: writeV9Project,
  item: writeV9Item,
  section: writeV9Section,
  label: writeV9Label,
  filter: writeV9Filter,
  note: writeV9Note,
  reminder: writeV9Reminder,
  // A place as the public API documents it: `[name, loc_lat, loc_long]`.
  location: (place) => [place.name, place.loc_lat, place.loc_long],
  completedInfo: writeCompletedInfo,
  viewOptions: writeViewOptions,
  projectViewOptionsDefaults: writeProjectViewOptionsDefaults,
  user: writeSyncUser,
  userSettings: writeUserSettings,
  collaborator: writeCollaborator,
  collaboratorState: writeCollaboratorState,
};
