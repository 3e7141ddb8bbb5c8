import type { LiveNotificationsReply } from '@doable/contracts-notifications';
import type { UserPlanLimits } from '@doable/contracts-plans';
import type { Item } from '../items/item.model';
import type { Project } from '../projects/project.model';
import type { Section } from '../sections/section.model';
import type { ResourceType } from '../engine/resource-types';
import type { UserProfile } from '../users/user-profile.model';
import type { CommandStatus } from '../engine/command-log.repository';

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
  readonly projects: readonly Project[];
  readonly items: readonly Item[];
  readonly sections: readonly Section[];
  readonly planLimits?: UserPlanLimits;
  readonly notifications?: LiveNotificationsReply;
}
