import { currentTraceparent } from '@doable/shared-logging';
import type { AuthEvents } from '@doable/contracts-auth';
import { Injectable } from '@nestjs/common';
import type { DeliveryEvent } from './webhook-body';
import type { EntityManager } from 'typeorm';
import type { z } from 'zod';

type WebhookConfigured = z.infer<typeof AuthEvents.appWebhookConfigured.payload>;
type AuthorizationChanged = z.infer<typeof AuthEvents.appAuthorizationChanged.payload>;

/** A delivery claimed for one attempt, with where it goes now. */
export interface ClaimedDelivery {
  readonly deliveryId: string;
  readonly appId: string;
  readonly userId: string;
  readonly eventName: string;
  readonly event: DeliveryEvent;
  /** Fixed at the first attempt; every retry sends the same bytes. */
  readonly body: string | null;
  /** This attempt's number, from 1. */
  readonly attempt: number;
  readonly callbackUrl: string;
  /** The object shape version the app asked for ('1': api/v1). */
  readonly version: string;
  /** The W3C trace context of the consumer that queued it: the attempt's span continues that trace. */
  readonly traceparent: string | null;
}

interface DeliveryRow {
  delivery_id: string;
  app_id: string;
  user_id: string;
  event_name: string;
  event: DeliveryEvent;
  body: string | null;
  attempts: number;
  callback_url: string;
  version: string;
  trace_parent: string | null;
}

/** The webhooks schema: the projections of auth-oauth's announcements and the deliveries. */
@Injectable()
export class WebhookRepository {
  /** Keeps the newest configuration of an app (events may arrive out of order across replicas). */
  async saveApp(manager: EntityManager, app: WebhookConfigured): Promise<void> {
    await manager.query(
      `INSERT INTO webhooks.apps (app_id, callback_url, events, version, changed_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (app_id) DO UPDATE SET callback_url = excluded.callback_url, events = excluded.events, version = excluded.version, changed_at = excluded.changed_at
       WHERE webhooks.apps.changed_at <= excluded.changed_at`,
      [app.appId, app.callbackUrl, app.events, app.version, app.changedAt],
    );
  }

  /** Keeps the newest authorisation of (app, user); a withdrawn one cancels what is still to be sent. */
  async saveAuthorization(manager: EntityManager, change: AuthorizationChanged): Promise<void> {
    await manager.query(
      `INSERT INTO webhooks.authorizations (app_id, user_id, authorized, changed_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (app_id, user_id) DO UPDATE SET authorized = excluded.authorized, changed_at = excluded.changed_at
       WHERE webhooks.authorizations.changed_at <= excluded.changed_at`,
      [change.appId, change.userId, change.authorized, change.changedAt],
    );
    if (!change.authorized) {
      await manager.query(`UPDATE webhooks.deliveries SET state = 'cancelled' WHERE app_id = $1 AND user_id = $2 AND state = 'pending'`, [change.appId, change.userId]);
    }
  }

  /**
   * One delivery per app that wants this event, for each user of the event's audience (older
   * events: the initiator) who authorised it, in one statement; answers how many. The body is
   * made at the first attempt, outside any transaction.
   */
  async enqueue(manager: EntityManager, eventName: string, event: DeliveryEvent): Promise<number> {
    // RETURNING, because TypeORM answers an INSERT with its rows only (no row count, unlike UPDATE).
    const made = await manager.query<unknown[]>(
      `INSERT INTO webhooks.deliveries (app_id, user_id, event_name, event, trace_parent)
       SELECT a.app_id, z.user_id, $1, $2::jsonb, $4
         FROM webhooks.authorizations z JOIN webhooks.apps a ON a.app_id = z.app_id
        WHERE z.user_id = ANY ($3::bigint[]) AND z.authorized AND a.callback_url IS NOT NULL AND $1 = ANY (a.events)
       RETURNING 1`,
      [eventName, JSON.stringify(event), [...new Set(event.audience ?? [event.initiatorId])], currentTraceparent() ?? null],
    );
    return made.length;
  }

  /**
   * Whether any (user, event name) of `wants` is a user who authorised an app with a callback
   * that wants that event: where none is, enqueue() and enqueueAll() would make nothing (the
   * consumer then takes the event without a transaction). One read of an index per user.
   */
  async anyoneWants(manager: EntityManager, wants: ReadonlyArray<{ readonly userId: string; readonly eventName: string }>): Promise<boolean> {
    if (wants.length === 0) return false;
    const [{ wanted }] = await manager.query<Array<{ wanted: boolean }>>(
      `SELECT EXISTS (SELECT 1 FROM unnest($1::bigint[], $2::text[]) AS w(user_id, event_name)
                        JOIN webhooks.authorizations z ON z.user_id = w.user_id AND z.authorized
                        JOIN webhooks.apps a ON a.app_id = z.app_id
                       WHERE a.callback_url IS NOT NULL AND w.event_name = ANY (a.events)) AS wanted`,
      [wants.map((want) => want.userId), wants.map((want) => want.eventName)],
    );
    return wanted;
  }

  /**
   * enqueue() for several events in two statements however many there are (the entries of a v2
   * object event: a request's 100 adds): who among their audiences authorised an app with a
   * callback, then, only if someone did, the deliveries each (event, name) makes, in one INSERT,
   * in the events' order. The same deliveries as enqueue() per event and name; answers how many.
   * `read` turns an event into what a delivery stores (a v2 entry checked whole), and is called
   * only for the events that make a delivery, once each: most requests concern no one who
   * authorised an app, and their events are never read past their audience.
   */
  async enqueueAll<E extends Pick<DeliveryEvent, 'initiatorId' | 'audience'>>(
    manager: EntityManager,
    items: ReadonlyArray<{ readonly eventName: string; readonly event: E }>,
    read: (event: E) => DeliveryEvent,
  ): Promise<number> {
    const audiences = items.map(({ event }) => [...new Set(event.audience ?? [event.initiatorId])]);
    const users = [...new Set(audiences.flat())];
    if (users.length === 0) return 0;
    const subscriptions = await manager.query<Array<{ user_id: string; app_id: string; events: string[] }>>(
      `SELECT z.user_id::text AS user_id, a.app_id::text AS app_id, a.events
         FROM webhooks.authorizations z JOIN webhooks.apps a ON a.app_id = z.app_id
        WHERE z.user_id = ANY ($1::bigint[]) AND z.authorized AND a.callback_url IS NOT NULL`,
      [users],
    );
    if (subscriptions.length === 0) return 0;
    const byUser = new Map<string, Array<{ appId: string; events: ReadonlySet<string> }>>();
    for (const row of subscriptions) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), { appId: row.app_id, events: new Set(row.events) }]);
    const checked = new Map<E, DeliveryEvent>();
    const readOnce = (event: E) => checked.get(event) ?? checked.set(event, read(event)).get(event)!;
    const rows = items
      .flatMap(({ eventName, event }, index) =>
        audiences[index].flatMap((userId) =>
          (byUser.get(userId) ?? []).filter((app) => app.events.has(eventName)).map((app) => ({ app_id: app.appId, user_id: userId, event_name: eventName, event: readOnce(event) })),
        ),
      )
      .map((row, n) => ({ n, ...row }));
    if (rows.length === 0) return 0;
    await manager.query(
      `INSERT INTO webhooks.deliveries (app_id, user_id, event_name, event, trace_parent)
       SELECT r.app_id, r.user_id, r.event_name, r.event, $2
         FROM jsonb_to_recordset($1::jsonb) AS r(app_id bigint, user_id bigint, event_name text, event jsonb, n bigint)
        ORDER BY r.n`,
      [JSON.stringify(rows), currentTraceparent() ?? null],
    );
    return rows.length;
  }

  /**
   * Claims due deliveries for one attempt each (SKIP LOCKED: replicas share the work). The claim
   * pushes `next_attempt_at` past the attempt's lease, so a worker that dies mid-attempt leaves
   * the delivery due again later rather than lost. One whose app no longer has a webhook is cancelled.
   */
  async claimDue(manager: EntityManager, limit: number, leaseSeconds: number): Promise<ClaimedDelivery[]> {
    await manager.query(
      `UPDATE webhooks.deliveries d SET state = 'cancelled' FROM webhooks.apps a
        WHERE d.state = 'pending' AND d.next_attempt_at <= now() AND a.app_id = d.app_id AND (a.callback_url IS NULL OR NOT d.event_name = ANY (a.events))`,
    );
    const [rows] = await manager.query<[DeliveryRow[], number]>(
      `UPDATE webhooks.deliveries d SET attempts = d.attempts + 1, next_attempt_at = now() + make_interval(secs => $2)
         FROM webhooks.apps a
        WHERE a.app_id = d.app_id AND d.delivery_id IN (
          SELECT delivery_id FROM webhooks.deliveries WHERE state = 'pending' AND next_attempt_at <= now() ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)
        RETURNING d.delivery_id::text AS delivery_id, d.app_id::text AS app_id, d.user_id::text AS user_id, d.event_name, d.event, d.body, d.attempts, a.callback_url, a.version, d.trace_parent`,
      [limit, leaseSeconds],
    );
    return rows.map((row) => ({
      deliveryId: row.delivery_id,
      appId: row.app_id,
      userId: row.user_id,
      eventName: row.event_name,
      event: row.event,
      body: row.body,
      attempt: row.attempts,
      callbackUrl: row.callback_url,
      version: row.version,
      traceparent: row.trace_parent,
    }));
  }

  /** The body as first made: kept so retries resend the same bytes (and the same signature). */
  async fixBody(manager: EntityManager, deliveryId: string, body: string): Promise<string> {
    const [rows] = await manager.query<[Array<{ body: string }>, number]>(
      `UPDATE webhooks.deliveries SET body = COALESCE(body, $2) WHERE delivery_id = $1 RETURNING body`,
      [deliveryId, body],
    );
    return rows[0]?.body ?? body;
  }

  async delivered(manager: EntityManager, deliveryId: string, status: number): Promise<void> {
    await manager.query(`UPDATE webhooks.deliveries SET state = 'delivered', last_status = $2, last_error = NULL WHERE delivery_id = $1 AND state = 'pending'`, [deliveryId, status]);
  }

  /** A failed attempt: due again after `retrySeconds`, or failed for good after `maxRetries` retries. */
  async attemptFailed(manager: EntityManager, deliveryId: string, outcome: { status: number | null; error: string }, retrySeconds: number, maxRetries: number): Promise<void> {
    await manager.query(
      `UPDATE webhooks.deliveries
          SET last_status = $2, last_error = left($3, 500),
              state = CASE WHEN attempts > $5 THEN 'failed' ELSE 'pending' END,
              next_attempt_at = now() + make_interval(secs => $4)
        WHERE delivery_id = $1 AND state = 'pending'`,
      [deliveryId, outcome.status, outcome.error, retrySeconds, maxRetries],
    );
  }
}
