import { createHmac } from 'node:crypto';
import { AuthEvents, type WebhookAddressPolicy, type WebhookEventName, webhookUrlProblem } from '@doable/contracts-auth';
import { DomainError } from '@doable/shared-errors';
import { Database } from '@doable/shared-runtime';
import { Inject, Injectable } from '@nestjs/common';
import { AppSecretBox } from '../secrets/app-secret-box';
import type { OAuthApp } from '../oauth/oauth-app.service';
import { type AppWebhook, AppWebhookRepository } from './app-webhook.repository';

/** WEBHOOKS_ALLOW_HTTP and WEBHOOKS_ALLOW_PRIVATE, as auth-oauth checks callback URLs with them. */
export const WEBHOOK_ADDRESS_POLICY = Symbol('WEBHOOK_ADDRESS_POLICY');

export interface WebhookSettings {
  readonly callbackUrl: string;
  readonly events: readonly WebhookEventName[];
  readonly version: '1' | '9';
}

/**
 * An application's webhook: configured by its owner (checked against the address policy), told
 * to the webhooks service through the outbox (AuthEvents.appWebhookConfigured, no secret in it),
 * and signed here on the webhooks service's request, so the plain secret stays in auth-oauth.
 * The settings are kept here, beside the app, rather than by the webhooks service: both ways of
 * writing them prove auth-oauth's credentials (the client secret, the owner's session), and the
 * first save keeps the sealed secret in the same transaction. The webhooks service delivers from
 * its projection (webhooks.apps).
 */
@Injectable()
export class AppWebhookService {
  constructor(
    private readonly database: Database,
    private readonly repository: AppWebhookRepository,
    private readonly secrets: AppSecretBox,
    @Inject(WEBHOOK_ADDRESS_POLICY) private readonly policy: WebhookAddressPolicy,
  ) {}

  async get(app: OAuthApp): Promise<AppWebhook> {
    const webhook = await this.repository.find(this.database.dataSource.manager, app.id);
    if (!webhook) throw new DomainError('OAUTH_APP_NOT_FOUND', 'Application not found');
    return webhook;
  }

  /** The webhooks of an owner's apps, by app id (the console page). */
  forApps(apps: readonly OAuthApp[]): Promise<Map<string, AppWebhook>> {
    return this.repository.findMany(this.database.dataSource.manager, apps.map((app) => app.id));
  }

  /**
   * Sets (settings) or removes (null) the app's webhook. `provenSecret` is the client secret the
   * caller authenticated with: an app registered before secrets were kept encrypted has it kept
   * now; without it, such an app must reset its secret first (WEBHOOK_SECRET_UNAVAILABLE).
   */
  async configure(app: OAuthApp, settings: WebhookSettings | null, provenSecret?: string): Promise<AppWebhook> {
    if (settings) {
      const problem = webhookUrlProblem(settings.callbackUrl, this.policy);
      if (problem) throw new DomainError('WEBHOOK_URL_REFUSED', problem, { argument: 'callback_url' });
    }
    const sealed = provenSecret === undefined ? undefined : await this.secrets.seal(provenSecret);
    return this.database.transaction(async (tx) => {
      if (sealed !== undefined) await this.repository.keepSealedSecret(tx.manager, app.id, sealed);
      else if (settings && (await this.repository.sealedSecret(tx.manager, app.id)) === null) {
        throw new DomainError('WEBHOOK_SECRET_UNAVAILABLE', 'This application was registered before webhooks existed: reset its client secret to enable webhooks');
      }
      const saved = await this.repository.save(tx.manager, app.id, settings ?? { callbackUrl: null, events: [], version: '1' });
      await tx.emit(AuthEvents.appWebhookConfigured, { appId: saved.appId, callbackUrl: saved.callbackUrl, events: [...saved.events], version: saved.version, changedAt: saved.changedAt });
      return saved;
    });
  }

  /** `X-Todoist-Hmac-SHA256` of a body: base64 HMAC-SHA256 under the app's client secret. */
  async sign(appId: string, body: string): Promise<{ signature: string }> {
    const sealed = await this.repository.sealedSecret(this.database.dataSource.manager, appId);
    const secret = sealed === null ? undefined : await this.secrets.open(sealed);
    if (secret === undefined) throw new DomainError('WEBHOOK_SECRET_UNAVAILABLE', 'The application has no client secret to sign webhooks with');
    return { signature: webhookSignature(secret, body) };
  }
}

/** The signature Todoist's receivers check: base64(HMAC-SHA256(client_secret, raw body)). */
export function webhookSignature(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('base64');
}
