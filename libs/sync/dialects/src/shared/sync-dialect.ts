import type { UserPlanLimits } from '@doable/contracts-plans';
import type { Collaborator, CollaboratorState, CompletedInfo, FilterRow, FolderRow, ItemRow, LabelRow, NoteRow, ProjectRow, ProjectViewOptionsDefaults, RecentLocation, ReminderRow, SectionRow, UserProfile, ViewOptions, WorkspaceFilterRow, WorkspaceMember, WorkspaceRow } from '@doable/sync-domain';
import type { SyncRequest, SyncResult } from '@doable/sync-engine';

/** The Sync API generations served, each by one module under dialects/. */
export type SyncDialectName = 'sync-v6' | 'sync-v7' | 'sync-v8' | 'sync-v9' | 'sync-api-v1';

/** How one version writes each canonical object: timestamps as Dates, or as wire text already (a full sync's). */
export interface ObjectWriters {
  readonly project: (row: ProjectRow) => Record<string, unknown>;
  readonly item: (row: ItemRow) => Record<string, unknown>;
  readonly section: (row: SectionRow) => Record<string, unknown>;
  readonly label: (row: LabelRow) => Record<string, unknown>;
  readonly filter: (row: FilterRow) => Record<string, unknown>;
  readonly note: (row: NoteRow) => Record<string, unknown>;
  readonly reminder: (row: ReminderRow) => Record<string, unknown>;
  readonly location: (place: RecentLocation) => unknown;
  readonly completedInfo: (row: CompletedInfo) => Record<string, unknown>;
  readonly viewOptions: (row: ViewOptions) => Record<string, unknown>;
  readonly projectViewOptionsDefaults: (row: ProjectViewOptionsDefaults) => Record<string, unknown>;
  /**
   * `websocketUrl`: the push channel's address for this caller (empty where none was made, a backup's).
   * `avatarOrigin`: where the avatar URLs point (none: the `avatar_*` keys are left out).
   */
  readonly user: (profile: UserProfile, websocketUrl?: string, avatarOrigin?: string) => Record<string, unknown>;
  readonly userSettings: (profile: UserProfile) => Record<string, unknown>;
  readonly collaborator: (row: Collaborator) => Record<string, unknown>;
  readonly collaboratorState: (row: CollaboratorState) => Record<string, unknown>;
  /** `user_plan_limits` where a generation's clients need it otherwise than the canonical value (api/v1). */
  readonly planLimits?: (limits: UserPlanLimits) => unknown;
  /** Workspaces and what they hold, in the generations that have them (v9, api/v1); the others never read them. */
  readonly workspaces?: WorkspaceWriters;
}

export interface WorkspaceWriters {
  readonly workspace: (row: WorkspaceRow) => Record<string, unknown>;
  readonly workspaceUser: (row: WorkspaceMember) => Record<string, unknown>;
  readonly folder: (row: FolderRow) => Record<string, unknown>;
  readonly workspaceFilter: (row: WorkspaceFilterRow) => Record<string, unknown>;
}

/** Who is asking, for the translations that need it (a v6 `seq_no` becomes this user's sync token). */
export interface DialectContext {
  readonly userId: string;
}

/**
 * One generation of the Sync API: it parses its requests into the engine's canonical request
 * (argument renames included) and renders the engine's canonical result in its own shape. The
 * engine, the commands and the read side never learn which version asked; adding a version is
 * adding one folder that implements this (see docs/architecture/adding-a-dialect.md).
 */
export interface SyncDialect {
  readonly name: SyncDialectName;
  parseRequest(body: unknown, context: DialectContext): SyncRequest;
  /** `request` is the one parseRequest answered (its renderParams: what the old generations echo or key on). */
  readonly render: (result: SyncResult, request?: SyncRequest) => Record<string, unknown>;
  /** Its object writers, for the satellite endpoints that answer single objects in this version (quick add). */
  readonly writers: ObjectWriters;
}
