import { type ObjectEvent, type ObjectEventFacts } from '@doable/contracts-sync';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ActivityEvent } from './activity-event.model';
import type { ActivityFilter, ActivityPosition } from './activity-query';

const COLUMNS = `e.id::text, e.object_type, e.object_id::text, e.event_type, e.event_date, e.parent_project_id::text,
  e.parent_item_id::text, e.initiator_id::text, e.extra_data`;

/** Who reads what, and how far back: the reader ($1) and their plan's activity_log_limit in days ($2, -1 unlimited). */
export interface ActivityReader {
  readonly userId: string;
  readonly days: number;
}

/**
 * Who may read an event, the one place it is decided: its initiator, and every user who is an
 * active member of the project it belongs to (sharing; a workspace project's members are
 * members of it). A collaborator who left stops seeing the project's events. And how far back:
 * the reader's plan keeps `days` (-1: everything).
 */
const READABLE = `(e.initiator_id = $1 OR e.project_id IN (SELECT m.project_id FROM sync.project_members m WHERE m.user_id = $1 AND m.state = 'active'))
  AND ($2::int < 0 OR e.event_date >= now() - make_interval(days => $2::int))`;

/** The activity log's table: one row per logged object event, read through READABLE only. */
@Injectable()
export class ActivityLogRepository {
  /** Stores the event once (its envelope id is unique: a redelivery changes nothing). */
  async record(manager: EntityManager, eventId: string, event: ObjectEvent): Promise<void> {
    await manager.query(
      `INSERT INTO sync.activity_events (event_id, object_type, object_id, event_type, event_date, initiator_id, project_id, parent_project_id, parent_item_id, workspace_id, extra_data)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (event_id) DO NOTHING`,
      [
        eventId,
        event.objectType,
        event.objectId,
        event.eventType,
        event.eventDate,
        event.initiatorId,
        event.objectType === 'project' ? event.objectId : event.parentProjectId,
        event.parentProjectId,
        event.parentItemId,
        event.workspaceId,
        JSON.stringify(event.extraData),
      ],
    );
  }

  /**
   * Stores several events in ONE statement (the logged entries of a v2 object event, each under
   * its entry id): one round trip for a request's 100 adds. Each is stored once, as record() does.
   */
  async recordAll(manager: EntityManager, entries: ReadonlyArray<{ readonly eventId: string; readonly event: ObjectEventFacts }>): Promise<void> {
    if (entries.length === 0) return;
    const rows = entries.map(({ eventId, event }, n) => ({
      n,
      event_id: eventId,
      object_type: event.objectType,
      object_id: event.objectId,
      event_type: event.eventType,
      event_date: event.eventDate,
      initiator_id: event.initiatorId,
      project_id: event.objectType === 'project' ? event.objectId : event.parentProjectId,
      parent_project_id: event.parentProjectId,
      parent_item_id: event.parentItemId,
      workspace_id: event.workspaceId,
      extra_data: event.extraData,
    }));
    await manager.query(
      `INSERT INTO sync.activity_events (event_id, object_type, object_id, event_type, event_date, initiator_id, project_id, parent_project_id, parent_item_id, workspace_id, extra_data)
       SELECT r.event_id, r.object_type, r.object_id, r.event_type, r.event_date, r.initiator_id, r.project_id, r.parent_project_id, r.parent_item_id, r.workspace_id, r.extra_data
         FROM jsonb_to_recordset($1::jsonb) AS r(event_id text, object_type text, object_id bigint, event_type text, event_date timestamptz, initiator_id bigint,
              project_id bigint, parent_project_id bigint, parent_item_id bigint, workspace_id bigint, extra_data jsonb, n bigint)
        ORDER BY r.n
       ON CONFLICT (event_id) DO NOTHING`,
      [JSON.stringify(rows)],
    );
  }

  /** `activity/get`: how many events match, and the page at `offset`, newest first. */
  async page(manager: EntityManager, reader: ActivityReader, filter: ActivityFilter, limit: number, offset: number): Promise<{ count: number; events: ActivityEvent[] }> {
    const where = conditions(filter, [reader.userId, reader.days]);
    const [{ count }] = await manager.query<[{ count: string }]>(`SELECT count(*)::text AS count FROM sync.activity_events e WHERE ${READABLE} ${where.sql}`, where.params);
    const events = await manager.query<ActivityEvent[]>(
      `SELECT ${COLUMNS} FROM sync.activity_events e WHERE ${READABLE} ${where.sql}
        ORDER BY e.event_date DESC, e.id DESC LIMIT ${limit} OFFSET ${offset}`,
      where.params,
    );
    return { count: Number(count), events };
  }

  /**
   * api/v1 `activities`: up to `limit` events after the position, newest first. With
   * `annotate`, each event's parent project name and parent task content (annotate_parents)
   * and a task's comment count (annotate_notes) come from the same statement.
   */
  async after(
    manager: EntityManager,
    reader: ActivityReader,
    filter: ActivityFilter,
    position: ActivityPosition | null,
    limit: number,
    annotate: { parents: boolean; notes: boolean },
  ): Promise<Array<ActivityEvent & { parent_project_name?: string | null; parent_item_content?: string | null; note_count?: number | null }>> {
    const where = conditions(filter, [reader.userId, reader.days]);
    let sql = where.sql;
    if (position) {
      where.params.push(position.date, position.id);
      sql += ` AND (e.event_date, e.id) < ($${where.params.length - 1}::timestamptz, $${where.params.length}::bigint)`;
    }
    const parents = annotate.parents
      ? `, (SELECT p.name FROM sync.projects p WHERE p.id = e.parent_project_id) AS parent_project_name,
           (SELECT i.content FROM sync.items i WHERE i.id = e.parent_item_id) AS parent_item_content`
      : '';
    const notes = annotate.notes
      ? `, CASE WHEN e.object_type = 'item' THEN (SELECT count(*)::int FROM sync.notes n WHERE n.item_id = e.object_id AND NOT n.is_deleted) END AS note_count`
      : '';
    return manager.query(
      `SELECT ${COLUMNS}${parents}${notes} FROM sync.activity_events e WHERE ${READABLE} ${sql}
        ORDER BY e.event_date DESC, e.id DESC LIMIT ${limit}`,
      where.params,
    );
  }
}

/** The filter as SQL after READABLE's two parameters; every value a parameter. */
function conditions(filter: ActivityFilter, params: unknown[]): { sql: string; params: unknown[] } {
  const parts: string[] = [];
  const add = (column: string, value: unknown, cast = '') => {
    params.push(value);
    parts.push(`${column} = $${params.length}${cast}`);
  };
  if (filter.objectType !== null) add('e.object_type', filter.objectType);
  if (filter.objectId !== null) add('e.object_id', filter.objectId, '::bigint');
  if (filter.eventType !== null) add('e.event_type', filter.eventType);
  if (filter.parentProjectId !== null) add('e.parent_project_id', filter.parentProjectId, '::bigint');
  if (filter.parentItemId !== null) add('e.parent_item_id', filter.parentItemId, '::bigint');
  if (filter.initiatorId !== null) add('e.initiator_id', filter.initiatorId, '::bigint');
  if (filter.workspaceId !== null) {
    // The project's workspace now (a project moved into a workspace brings its history).
    params.push(filter.workspaceId);
    parts.push(`e.project_id IN (SELECT p.id FROM sync.projects p WHERE p.workspace_id = $${params.length}::bigint)`);
  }
  if (filter.since !== null) {
    params.push(filter.since.toISOString());
    parts.push(`e.event_date >= $${params.length}::timestamptz`);
  }
  if (filter.until !== null) {
    params.push(filter.until.toISOString());
    parts.push(`e.event_date < $${params.length}::timestamptz`);
  }
  if (filter.objectEventTypes.length > 0) {
    const any = filter.objectEventTypes.map((pair) => {
      const sides: string[] = [];
      if (pair.objectType !== null) {
        params.push(pair.objectType);
        sides.push(`e.object_type = $${params.length}`);
      }
      if (pair.eventType !== null) {
        params.push(pair.eventType);
        sides.push(`e.event_type = $${params.length}`);
      }
      return sides.length === 0 ? 'true' : `(${sides.join(' AND ')})`;
    });
    parts.push(`(${any.join(' OR ')})`);
  }
  return { sql: parts.map((part) => ` AND ${part}`).join(''), params };
}
