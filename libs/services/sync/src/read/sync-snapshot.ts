import type { LiveNotificationsReply } from '@doable/contracts-notifications';
import type { UserPlanLimits } from '@doable/contracts-plans';
import type { ReadResource } from './resource-source';
import type { ResourceType } from '../engine/resource-types';
import type { UserProfile } from '../users/user-profile.model';
import type { CommandStatus } from '../engine/command-status';

/** The outcome of a sync request in domain terms; each dialect renders it in its own shape. */
export interface SyncResult {
  readonly read?: SyncRead;
  readonly syncStatus?: Record<string, CommandStatus>;
  readonly tempIdMapping: Record<string, string>;
}

export interface SyncRead {
  readonly fullSync: boolean;
  readonly syncToken: string;
  readonly generatedAt: Date;
  readonly types: ReadonlySet<ResourceType>;
  /** Present on a full sync and when the user changed. */
  readonly user?: UserProfile;
  /** The same row, present on a full sync and when the user's settings changed. */
  readonly userSettings?: UserProfile;
  /** The rows of every requested resource that has a source, with that source. */
  readonly resources: readonly ReadResource[];
  readonly planLimits?: UserPlanLimits;
  readonly notifications?: LiveNotificationsReply;
  /** The `stats` resource (full syncs): today's and this week's completions. */
  readonly stats?: Record<string, unknown>;
}
