import type { WebhookEventName } from '@doable/contracts-auth';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

export interface AppWebhook {
  readonly appId: string;
  readonly callbackUrl: string | null;
  readonly events: readonly WebhookEventName[];
  readonly version: '1' | '9';
  /** When this configuration was written (the database clock, microseconds): orders the events. */
  readonly changedAt: string;
}

interface WebhookRow {
  app_id: string;
  webhook_callback_url: string | null;
  webhook_events: WebhookEventName[];
  webhook_version: '1' | '9';
  changed_at: string;
}

const NOW = `to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
const COLUMNS = `id::text AS app_id, webhook_callback_url, webhook_events, webhook_version, ${NOW} AS changed_at`;

function toWebhook(row: WebhookRow): AppWebhook {
  return { appId: row.app_id, callbackUrl: row.webhook_callback_url, events: row.webhook_events, version: row.webhook_version, changedAt: row.changed_at };
}

/** The webhook columns of auth.oauth_apps and the encrypted copy of the client secret. */
@Injectable()
export class AppWebhookRepository {
  async find(manager: EntityManager, appId: string): Promise<AppWebhook | undefined> {
    const rows = await manager.query<WebhookRow[]>(`SELECT ${COLUMNS} FROM auth.oauth_apps WHERE id = $1`, [appId]);
    return rows[0] && toWebhook(rows[0]);
  }

  /** The webhooks of several apps in one read (the console lists an owner's apps with theirs). */
  async findMany(manager: EntityManager, appIds: readonly string[]): Promise<Map<string, AppWebhook>> {
    if (appIds.length === 0) return new Map();
    const rows = await manager.query<WebhookRow[]>(`SELECT ${COLUMNS} FROM auth.oauth_apps WHERE id = ANY($1::bigint[])`, [[...appIds]]);
    return new Map(rows.map((row) => [row.app_id, toWebhook(row)]));
  }

  async save(manager: EntityManager, appId: string, webhook: Pick<AppWebhook, 'callbackUrl' | 'events' | 'version'>): Promise<AppWebhook> {
    const [rows] = await manager.query<[WebhookRow[], number]>(
      `UPDATE auth.oauth_apps SET webhook_callback_url = $2, webhook_events = $3, webhook_version = $4 WHERE id = $1 RETURNING ${COLUMNS}`,
      [appId, webhook.callbackUrl, [...webhook.events], webhook.version],
    );
    return toWebhook(rows[0]);
  }

  async sealedSecret(manager: EntityManager, appId: string): Promise<string | null> {
    const rows = await manager.query<Array<{ sealed: string | null }>>(`SELECT client_secret_encrypted AS sealed FROM auth.oauth_apps WHERE id = $1`, [appId]);
    return rows[0]?.sealed ?? null;
  }

  /** Only when none is kept yet: an app registered before secrets were kept encrypted. */
  async keepSealedSecret(manager: EntityManager, appId: string, sealed: string): Promise<void> {
    await manager.query(`UPDATE auth.oauth_apps SET client_secret_encrypted = $2 WHERE id = $1 AND client_secret_encrypted IS NULL`, [appId, sealed]);
  }
}
