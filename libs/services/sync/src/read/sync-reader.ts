import { NotificationsSubjects } from '@doable/contracts-notifications';
import { PlansSubjects } from '@doable/contracts-plans';
import { DomainError } from '@doable/shared-errors';
import { Database } from '@doable/shared-runtime';
import { ServiceClient } from '@doable/shared-transport';
import { Injectable } from '@nestjs/common';
import { ItemRepository } from '../items/item.repository';
import type { Item } from '../items/item.model';
import { ProjectRepository } from '../projects/project.repository';
import { SectionRepository } from '../sections/section.repository';
import type { Section } from '../sections/section.model';
import type { Project } from '../projects/project.model';
import { selectResourceTypes } from '../engine/resource-types';
import { decodeSyncToken, encodeSyncToken } from '../engine/sync-token';
import { UserProfileRepository } from '../users/user-profile.repository';
import type { UserProfile } from '../users/user-profile.model';
import type { SyncRead } from './sync-snapshot';

/**
 * Full and incremental reads. A full sync reads active data in one snapshot; an incremental
 * sync reads only rows stamped after the token's version, and when the user's high-water
 * mark has not moved it touches nothing but the user row. Other services are asked only
 * after the snapshot's transaction has ended.
 */
@Injectable()
export class SyncReader {
  constructor(
    private readonly database: Database,
    private readonly profiles: UserProfileRepository,
    private readonly projects: ProjectRepository,
    private readonly items: ItemRepository,
    private readonly sections: SectionRepository,
    private readonly services: ServiceClient,
  ) {}

  async read(userId: string, syncToken: string, resourceTypes: readonly string[]): Promise<SyncRead> {
    const fullSync = syncToken === '*';
    const since = fullSync ? undefined : decodeSyncToken(userId, syncToken);
    const types = selectResourceTypes(resourceTypes, fullSync);
    const generatedAt = new Date();

    const snapshot = await this.database.readSnapshot(async (manager) => {
      const user = await this.profiles.find(manager, userId);
      if (!user) throw new DomainError('USER_NOT_FOUND', 'User not found (the account may still be being set up)');
      const changed = since === undefined || BigInt(user.high_water) > BigInt(since.version);
      let projects: Project[] = [];
      let items: Item[] = [];
      if (changed && types.has('projects')) {
        projects = since ? await this.projects.listChangedSince(manager, userId, since.version) : await this.projects.listActive(manager, userId);
      }
      if (changed && types.has('items')) {
        items = since ? await this.items.listChangedSince(manager, userId, since.version) : await this.items.listActive(manager, userId);
      }
      let sections: Section[] = [];
      if (changed && types.has('sections')) {
        sections = since ? await this.sections.listChangedSince(manager, userId, since.version) : await this.sections.listActive(manager, userId);
      }
      return { user, changed, projects, items, sections };
    });

    const userChanged = since === undefined || BigInt(snapshot.user.version) > BigInt(since.version);
    const [planLimits, notifications] = await Promise.all([
      types.has('user_plan_limits') && userChanged ? this.services.request(PlansSubjects.userLimits, { userId }) : undefined,
      types.has('live_notifications') && snapshot.changed
        ? this.services.request(NotificationsSubjects.liveNotifications, { userId, after: since?.notificationCursor ?? 0 })
        : undefined,
    ]);

    return {
      fullSync,
      generatedAt,
      types,
      syncToken: encodeSyncToken(userId, {
        version: snapshot.user.high_water,
        notificationCursor: notifications?.cursor ?? since?.notificationCursor ?? 0,
      }),
      user: userChanged ? (snapshot.user satisfies UserProfile) : undefined,
      projects: snapshot.projects,
      items: snapshot.items,
      sections: snapshot.sections,
      planLimits,
      notifications,
    };
  }
}
