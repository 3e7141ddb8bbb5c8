import { NotificationsSubjects } from '@doable/contracts-notifications';
import { DomainError } from '@doable/shared-errors';
import { Database, type ReadSource, StandbyBehind } from '@doable/shared-runtime';
import { ServiceClient } from '@doable/shared-transport';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ItemRepository, LabelRepository, PlanLimitsRepository, ProductivityStatsService, ProjectRepository, type UserProfile, UserProfileRepository } from '@doable/sync-domain';
import { MembershipChangesRepository } from './membership-changes.repository';
import type { ReadContext, ReadNeeds } from './read-needs';
import { type JsonTexts, RESOURCE_SOURCES, type ResourceRows, type ResourceSource } from './sources/resource-source';
import { selectResourceTypes } from './resource-types';
import { decodeSyncToken, encodeSyncToken } from './sync-token';
import type { SyncRead } from './sync-snapshot';

/** How a read is placed (SyncEngine: a request that ran commands reads where they were written). */
export interface ReadPlacement {
  /** The request's own commands just committed: read on the primary (the replica would make the read wait for them). */
  readonly afterWrite?: boolean;
}

/**
 * Full and incremental reads. A full sync reads active data in one snapshot; an incremental
 * sync reads only rows stamped after the token's version, and when the user's high-water
 * mark has not moved it touches nothing but the user row. Other services are asked only
 * after the snapshot's transaction has ended.
 *
 * The no-change answer reads the user row on the primary (one indexed row: cheaper there than
 * asking where else it could be read); the snapshot, the read that grows with the account, goes
 * to the read replica when there is one and it has every commit that changed the user's data
 * (Database.read, docs/operations/postgres-replica.md).
 */
@Injectable()
export class SyncReader {
  constructor(
    private readonly database: Database,
    private readonly profiles: UserProfileRepository,
    @Inject(RESOURCE_SOURCES) private readonly sources: ResourceSource[],
    private readonly services: ServiceClient,
    private readonly productivity: ProductivityStatsService,
    private readonly items: ItemRepository,
    private readonly projects: ProjectRepository,
    private readonly labels: LabelRepository,
    private readonly memberships: MembershipChangesRepository,
    private readonly planLimits: PlanLimitsRepository,
  ) {}

  /** Refuses a read's malformed arguments (a foreign or crafted token, an unknown resource) without reading. */
  check(userId: string, syncToken: string, resourceTypes: readonly string[]): void {
    if (syncToken !== '*') decodeSyncToken(userId, syncToken);
    selectResourceTypes(resourceTypes, syncToken === '*');
  }

  async read(userId: string, syncToken: string, resourceTypes: readonly string[], needs: ReadNeeds = {}, placement: ReadPlacement = {}): Promise<SyncRead> {
    const fullSync = syncToken === '*';
    const since = fullSync ? undefined : decodeSyncToken(userId, syncToken);
    const types = selectResourceTypes(resourceTypes, fullSync);
    const generatedAt = new Date();

    const wantsNotifications = types.has('live_notifications');
    // What polling clients do most: ask for changes when there are none. One indexed read of
    // the user row, outside any transaction, answers it; nothing else is queried.
    if (since) {
      const position = await this.profiles.syncPosition(this.database.dataSource.manager, userId);
      if (position === undefined) throw new DomainError('USER_NOT_FOUND', 'User not found (the account may still be being set up)');
      const notified = wantsNotifications && BigInt(position.notification_mark) > BigInt(since.notificationMark);
      if (BigInt(position.high_water) <= BigInt(since.version) && !notified) {
        return {
          fullSync,
          unchanged: true,
          generatedAt,
          types,
          syncToken: encodeSyncToken(userId, since),
          version: since.version,
          rows: Object.fromEntries(this.sources.filter((source) => types.has(source.type)).map((source) => [source.type, []])),
        };
      }
    }

    const readAt = (place: ReadSource) => place.readSnapshot(async (manager) => {
      const user = await this.profiles.find(manager, userId);
      // A new account's profile is made by a commit that moves no marks (no one could have read it before): the primary knows.
      if (!user && place.server === 'standby') throw new StandbyBehind(`the profile of user ${userId}`);
      if (!user) throw new DomainError('USER_NOT_FOUND', 'User not found (the account may still be being set up)');
      const changed = since === undefined || BigInt(user.high_water) > BigInt(since.version);
      const rows: Partial<Record<keyof ResourceRows, unknown[]>> = {};
      const json: Partial<Record<keyof ResourceRows, JsonTexts>> = {};
      // Projects joined or left after the token: read once, carried whole or as tombstones by every source.
      const memberships = changed && since ? await this.memberships.since(manager, userId, since.version) : undefined;
      // The needs that read beside the rows want the rows: with them, nothing is written by PostgreSQL.
      const jsonReads = needs.projectTasks || needs.labels || needs.allProjects ? undefined : needs.json;
      for (const source of this.sources) {
        if (!types.has(source.type)) continue;
        // Nothing moved past the token: every requested resource is empty, and not one is queried.
        if (!changed) rows[source.type] = [];
        else if (since && memberships) rows[source.type] = await source.listChangedSince(manager, userId, since.version, memberships);
        else {
          const object = jsonReads?.[source.type];
          const written = object && source.listActiveJson ? await source.listActiveJson(manager, userId, object) : undefined;
          if (written) json[source.type] = written;
          else rows[source.type] = await source.listActive(manager, userId);
        }
      }
      // The stats resource is answered on full syncs: today's and this week's completions.
      const stats = since === undefined && types.has('stats') ? await this.productivity.stats(manager, userId, generatedAt) : undefined;
      const context = await this.readContext(manager, user, rows as Partial<ResourceRows>, needs, since === undefined);
      // This service's copy of the plan (the one commands are checked against): carried when it
      // changed after the token (a set-plan, a catalogue change), or the user row did.
      const plan = changed && types.has('user_plan_limits') ? await this.planLimits.find(manager, userId) : undefined;
      return { user, changed, rows: rows as Partial<ResourceRows>, json, stats, context, plan, server: place.server };
    });
    const snapshot = placement.afterWrite ? await readAt(this.database.primary) : await this.database.read(userId, readAt);
    // A standby a moment behind the token's own read finds nothing after it: the token stays where
    // it was (moved back, it would only send the same changes again). The primary's mark is the truth.
    const behindToken = snapshot.server === 'standby' && since !== undefined && BigInt(snapshot.user.high_water) < BigInt(since.version);
    const version = behindToken ? since.version : snapshot.user.high_water;

    const userChanged = since === undefined || BigInt(snapshot.user.version) > BigInt(since.version);
    const settingsChanged = since === undefined || BigInt(snapshot.user.settings_version) > BigInt(since.version);
    const plan = snapshot.plan;
    const planLimits = plan && (since === undefined || userChanged || BigInt(plan.version) > BigInt(since.version)) ? plan.limits : undefined;
    let notificationsUnavailable = false;
    const [notifications] = await Promise.all([
      // Asked when data moved (the user's own notification commands move it) or a delivery arrived since the token.
      wantsNotifications && (snapshot.changed || BigInt(snapshot.user.notification_mark) > BigInt(since?.notificationMark ?? '-1'))
        ? this.services.request(NotificationsSubjects.liveNotifications, { userId, after: since?.notificationCursor ?? 0 }).catch((err: unknown) => {
            // Notifications down must not fail the whole read: every client treats live_notifications
            // as optional (client-schemas.md), so it is left out and the token keeps the
            // notification cursor and mark it came with; the next read asks again and catches up.
            if (!(err instanceof DomainError) || err.code !== 'SERVICE_UNAVAILABLE') throw err;
            notificationsUnavailable = true;
            return undefined;
          })
        : undefined,
    ]);

    return {
      fullSync,
      generatedAt,
      types,
      version,
      syncToken: encodeSyncToken(userId, {
        version,
        notificationCursor: notifications?.cursor ?? since?.notificationCursor ?? 0,
        // Only an answer that asked for live notifications has caught up with the deliveries.
        notificationMark: wantsNotifications && !notificationsUnavailable ? snapshot.user.notification_mark : (since?.notificationMark ?? '0'),
      }),
      user: userChanged ? (snapshot.user satisfies UserProfile) : undefined,
      userSettings: settingsChanged ? snapshot.user : undefined,
      rows: snapshot.rows,
      ...(Object.keys(snapshot.json).length > 0 ? { json: snapshot.json } : {}),
      planLimits,
      notifications,
      ...(notificationsUnavailable ? { notificationsUnavailable } : {}),
      stats: snapshot.stats && syncStats(snapshot.stats),
      context: snapshot.context,
    };
  }

  /**
   * What the dialect declared it needs beside the rows (ReadNeeds), in the read's snapshot: one
   * query per need, only when the rows it serves were read and are not already whole.
   */
  private async readContext(manager: EntityManager, user: UserProfile, rows: Partial<ResourceRows>, needs: ReadNeeds, full: boolean): Promise<ReadContext | undefined> {
    if (!needs.projectTasks && !needs.allProjects && !needs.labels) return undefined;
    const items = rows.items ?? [];
    let projectTasks: ReadContext['projectTasks'];
    if (needs.projectTasks && items.length > 0) {
      // A full read's tasks are every active task already.
      projectTasks = full ? items : await this.items.listActiveInProjects(manager, user.id, [...new Set(items.map((item) => item.project_id))]);
    }
    const projects = needs.allProjects && !full && (rows.projects?.length ?? 0) > 0 ? await this.projects.listActive(manager, user.id) : undefined;
    // A full read that fetched the labels already has them all.
    const labels = needs.labels && items.length > 0 ? (full && rows.labels ? rows.labels : await this.labels.listActive(manager, user.id)) : undefined;
    return { timezone: user.timezone, projectTasks, projects: full ? rows.projects : projects, labels };
  }
}

/** The sync `stats` resource: the all-time count, today, and the current week (sync-interface §2). */
function syncStats(stats: Record<string, unknown>): Record<string, unknown> {
  const first = (value: unknown): unknown[] => (Array.isArray(value) ? (value as unknown[]).slice(0, 1) : []);
  return { completed_count: stats['completed_count'], days_items: first(stats['days_items']), week_items: first(stats['week_items']) };
}
