import { NotificationsSubjects } from '@doable/contracts-notifications';
import { PlansSubjects } from '@doable/contracts-plans';
import { DomainError } from '@doable/shared-errors';
import { Database } from '@doable/shared-runtime';
import { ServiceClient } from '@doable/shared-transport';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { RESOURCE_SOURCES, type RenderNeeds, type ResourceRows, type ResourceSource, type SourcedType } from './resource-source';
import { selectResourceTypes } from './resource-types';
import { decodeSyncToken, encodeSyncToken } from './sync-token';
import { UserProfileRepository } from '../users/user-profile.repository';
import type { UserProfile } from '../users/user-profile.model';
import type { SyncRead } from './sync-snapshot';
import { ProductivityStatsService } from '../stats/productivity-stats.service';

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
    @Inject(RESOURCE_SOURCES) private readonly sources: ResourceSource[],
    private readonly services: ServiceClient,
    private readonly productivity: ProductivityStatsService,
  ) {}

  /** Refuses a read's malformed arguments (a foreign or crafted token, an unknown resource) without reading. */
  check(userId: string, syncToken: string, resourceTypes: readonly string[]): void {
    if (syncToken !== '*') decodeSyncToken(userId, syncToken);
    selectResourceTypes(resourceTypes, syncToken === '*');
  }

  async read(userId: string, syncToken: string, resourceTypes: readonly string[], renderNeeds: RenderNeeds = {}): Promise<SyncRead> {
    const fullSync = syncToken === '*';
    const since = fullSync ? undefined : decodeSyncToken(userId, syncToken);
    const types = selectResourceTypes(resourceTypes, fullSync);
    const generatedAt = new Date();

    // What polling clients do most: ask for changes when there are none. One indexed read of
    // the user row, outside any transaction, answers it; nothing else is queried.
    if (since) {
      const highWater = await this.profiles.highWater(this.database.dataSource.manager, userId);
      if (highWater === undefined) throw new DomainError('USER_NOT_FOUND', 'User not found (the account may still be being set up)');
      if (BigInt(highWater) <= BigInt(since.version)) {
        return {
          fullSync,
          generatedAt,
          types,
          syncToken: encodeSyncToken(userId, since),
          version: since.version,
          rows: Object.fromEntries(this.sources.filter((source) => types.has(source.type)).map((source) => [source.type, []])),
        };
      }
    }

    const snapshot = await this.database.readSnapshot(async (manager) => {
      const user = await this.profiles.find(manager, userId);
      if (!user) throw new DomainError('USER_NOT_FOUND', 'User not found (the account may still be being set up)');
      const changed = since === undefined || BigInt(user.high_water) > BigInt(since.version);
      const rows: Partial<Record<keyof ResourceRows, unknown[]>> = {};
      for (const source of this.sources) {
        if (!types.has(source.type)) continue;
        // Nothing moved past the token: every requested resource is empty, and not one is queried.
        rows[source.type] = !changed ? [] : since ? await source.listChangedSince(manager, userId, since.version) : await source.listActive(manager, userId);
      }
      const context = await this.renderContext(manager, userId, rows as Partial<ResourceRows>, renderNeeds, fullSync);
      // The stats resource is answered on full syncs: today's and this week's completions.
      const stats = since === undefined && types.has('stats') ? await this.productivity.stats(manager, userId, generatedAt) : undefined;
      return { user, changed, rows: rows as Partial<ResourceRows>, context, stats };
    });

    const userChanged = since === undefined || BigInt(snapshot.user.version) > BigInt(since.version);
    const settingsChanged = since === undefined || BigInt(snapshot.user.settings_version) > BigInt(since.version);
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
      version: snapshot.user.high_water,
      syncToken: encodeSyncToken(userId, {
        version: snapshot.user.high_water,
        notificationCursor: notifications?.cursor ?? since?.notificationCursor ?? 0,
      }),
      user: userChanged ? (snapshot.user satisfies UserProfile) : undefined,
      userSettings: settingsChanged ? snapshot.user : undefined,
      rows: snapshot.rows,
      ...(snapshot.context ? { context: snapshot.context } : {}),
      planLimits,
      notifications,
      stats: snapshot.stats && syncStats(snapshot.stats),
    };
  }

  /**
   * The active rows a dialect needs to render what was read (SyncRequest.renderNeeds): one query
   * per needed type, and only when a type that needs it has rows. A full sync's own rows of that
   * type are its active rows already and are reused.
   */
  private async renderContext(
    manager: EntityManager,
    userId: string,
    rows: Partial<ResourceRows>,
    renderNeeds: RenderNeeds,
    fullSync: boolean,
  ): Promise<Partial<ResourceRows> | undefined> {
    const needed = new Set<SourcedType>();
    for (const [type, needs] of Object.entries(renderNeeds) as Array<[SourcedType, readonly SourcedType[]]>) {
      if ((rows[type]?.length ?? 0) > 0) needs.forEach((need) => needed.add(need));
    }
    if (needed.size === 0) return undefined;
    const context: Partial<Record<SourcedType, unknown[]>> = {};
    for (const type of needed) {
      const source = this.sources.find((candidate) => candidate.type === type);
      if (!source) continue;
      context[type] = fullSync && rows[type] ? rows[type] : await source.listActive(manager, userId);
    }
    return context as Partial<ResourceRows>;
  }
}

/** The sync `stats` resource: the all-time count, today, and the current week (sync-interface §2). */
function syncStats(stats: Record<string, unknown>): Record<string, unknown> {
  const first = (value: unknown): unknown[] => (Array.isArray(value) ? (value as unknown[]).slice(0, 1) : []);
  return { completed_count: stats['completed_count'], days_items: first(stats['days_items']), week_items: first(stats['week_items']) };
}
