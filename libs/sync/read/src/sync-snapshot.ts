import type { RolePermissions } from '@doable/contracts-sync';
import type { LiveNotificationsReply } from '@doable/contracts-notifications';
import type { UserPlanLimits } from '@doable/contracts-plans';
import type { ReadContext } from './read-needs';
import type { JsonTexts, ResourceRows } from './sources/resource-source';
import type { ResourceType } from './resource-types';
import type { UserProfile } from '@doable/sync-domain';

/** A full or incremental read in domain terms: canonical rows, never a version's shape. */
export interface SyncRead {
  readonly fullSync: boolean;
  /** Answered from the user row alone: nothing moved past the token (the same read answers the same until the user's marks move). */
  readonly unchanged?: true;
  readonly syncToken: string;
  /** The change version the read is current to (what the token encodes; v6's `seq_no`). */
  readonly version: string;
  readonly generatedAt: Date;
  readonly types: ReadonlySet<ResourceType>;
  /** Present on a full sync and when the user changed. */
  readonly user?: UserProfile;
  /** The user's push channel address (PushTokens), added where the user object is written for a caller. */
  readonly websocketUrl?: string;
  /** The origin the user object's avatar URLs point at (the caller's), added beside websocketUrl. */
  readonly avatarOrigin?: string;
  /** The same row, present on a full sync and when the user's settings changed. */
  readonly userSettings?: UserProfile;
  /** The canonical rows of every requested resource type that has a source. */
  readonly rows: Partial<ResourceRows>;
  /**
   * The resources PostgreSQL wrote as the dialect asked (ReadNeeds.json), as the JSON text of
   * their response keys; such a resource has no rows.
   */
  readonly json?: Partial<Record<keyof ResourceRows, JsonTexts>>;
  readonly planLimits?: UserPlanLimits;
  readonly notifications?: LiveNotificationsReply;
  /** Notifications did not answer: live_notifications is left out (the token keeps its cursor, so the next read catches up). */
  readonly notificationsUnavailable?: boolean;
  /** The `stats` resource (full syncs): today's and this week's completions. */
  readonly stats?: Record<string, unknown>;
  /** What the request's dialect declared it needs read beside the rows (ReadNeeds); absent when nothing was read. */
  readonly context?: ReadContext;
  /** The `role_actions` resource (full syncs that ask for it): the code's role table, derived from the commands' policies. */
  readonly rolePermissions?: RolePermissions;
}
