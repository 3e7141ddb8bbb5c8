import { Database } from '@doable/shared-runtime';
import { Injectable } from '@nestjs/common';
import { PlanGate, PlanLimitsRepository } from '@doable/sync-domain';
import { ActivityLogRepository, type ActivityReader } from './activity-log.repository';
import { encodeActivityCursor, parseActivities, parseActivityGet } from './activity-query';
import { type ActivityDialect, writeActivityEvent } from './activity.writers';

/**
 * The activity log's readers: v9/v8/v7 `activity/get` (`{count, events}`, offset paging) and
 * api/v1 `activities` (`{results, next_cursor}`). Both need the reader's plan's `activity_log`
 * feature (FEATURE_NOT_IN_PLAN otherwise, as any plan feature) and see the days its
 * `activity_log_limit` keeps; rows older are kept, not shown (a plan upgrade shows them again).
 */
@Injectable()
export class ActivityLogService {
  constructor(
    private readonly database: Database,
    private readonly plans: PlanLimitsRepository,
    private readonly log: ActivityLogRepository,
  ) {}

  async get(userId: string, dialect: Exclude<ActivityDialect, 'rest-api-v1'>, params: Record<string, unknown>): Promise<{ count: number; events: unknown[] }> {
    const query = parseActivityGet(params);
    const reader = await this.reader(userId);
    const { count, events } = await this.database.readSnapshot((manager) => this.log.page(manager, reader, query, query.limit, query.offset));
    return { count, events: events.map((event) => writeActivityEvent(dialect, event)) };
  }

  async activities(userId: string, params: Record<string, unknown>): Promise<{ results: unknown[]; next_cursor: string | null }> {
    const query = parseActivities(params);
    const reader = await this.reader(userId);
    const rows = await this.log.after(this.database.dataSource.manager, reader, query, query.after, query.limit + 1, { parents: query.annotateParents, notes: query.annotateNotes });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      results: page.map(({ parent_project_name, parent_item_content, note_count, ...event }) => {
        const written = writeActivityEvent('rest-api-v1', event);
        const extra: Record<string, unknown> = { ...event.extra_data };
        if (query.annotateParents) {
          if (parent_project_name !== undefined && parent_project_name !== null) extra.parent_name = parent_project_name;
          if (parent_item_content !== undefined && parent_item_content !== null) extra.parent_item_content = parent_item_content;
        }
        if (query.annotateNotes && note_count !== undefined && note_count !== null) extra.note_count = note_count;
        return { ...written, extra_data: extra };
      }),
      next_cursor: rows.length > query.limit && last ? encodeActivityCursor({ date: new Date(last.event_date).toISOString(), id: last.id }) : null,
    };
  }

  /** The reader and how far back their plan lets them see; refused without the activity_log feature. */
  private async reader(userId: string): Promise<ActivityReader> {
    const gate = new PlanGate(this.database.dataSource.manager, this.plans, userId);
    await gate.requireFeature('activity_log');
    const plan = await gate.planOf(userId);
    return { userId, days: plan.activity_log_limit };
  }
}
