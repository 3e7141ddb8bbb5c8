import { WEBHOOK_EVENT_NAMES, type WebhookEventName } from '@doable/contracts-auth';
import type { EdgeReply } from '@doable/contracts-common';
import { DomainError } from '@doable/shared-errors';
import { Injectable } from '@nestjs/common';
import { basicCredentials } from '../oauth/client-credentials';
import { type OAuthApp, OAuthAppService } from '../oauth/oauth-app.service';
import type { WebExchange } from '../exchange/web-exchange';
import type { AppWebhook } from './app-webhook.repository';
import { AppWebhookService, type WebhookSettings } from './app-webhook.service';

const EVENT_NAMES: ReadonlySet<string> = new Set(WEBHOOK_EVENT_NAMES);

function render(app: OAuthApp, webhook: AppWebhook): Record<string, unknown> {
  return { client_id: app.clientId, callback_url: webhook.callbackUrl, events: webhook.events, version: webhook.version };
}

/**
 * `GET | PUT | DELETE /api/v1/apps/webhook`: an application reads, sets or removes its own
 * webhook, authenticated with its client credentials (HTTP Basic `client_id:client_secret`, as
 * RFC 7009 revocation). The credentials are the app's own: no user session is involved, and
 * the secret just proven is the one signatures will use.
 */
@Injectable()
export class AppWebhookEndpoints {
  constructor(
    private readonly apps: OAuthAppService,
    private readonly webhooks: AppWebhookService,
  ) {}

  async get(web: WebExchange): Promise<EdgeReply> {
    const { app } = await this.authenticate(web);
    return web.json(200, render(app, await this.webhooks.get(app)));
  }

  async put(web: WebExchange): Promise<EdgeReply> {
    const { app, secret } = await this.authenticate(web);
    return web.json(200, render(app, await this.webhooks.configure(app, settingsOf(web.request.body), secret)));
  }

  async remove(web: WebExchange): Promise<EdgeReply> {
    const { app } = await this.authenticate(web);
    return web.json(200, render(app, await this.webhooks.configure(app, null)));
  }

  private async authenticate(web: WebExchange): Promise<{ app: OAuthApp; secret: string }> {
    const credentials = basicCredentials(web.header('authorization'));
    const app = credentials && (await this.apps.authenticate(credentials.clientId, credentials.clientSecret));
    if (!app) throw new DomainError('APP_CREDENTIALS_INVALID', 'Send the application credentials as HTTP Basic client_id:client_secret');
    return { app, secret: credentials.clientSecret };
  }
}

/** `{callback_url, events, version?}` checked field by field, each refusal naming its argument. */
export function settingsOf(body: unknown): WebhookSettings {
  const fields = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const { callback_url: callbackUrl, events, version = '1' } = fields;
  if (typeof callbackUrl !== 'string' || callbackUrl === '') throw new DomainError('ARGUMENT_MISSING', 'callback_url is required', { argument: 'callback_url' });
  if (!Array.isArray(events) || events.length === 0 || !events.every((name) => typeof name === 'string' && EVENT_NAMES.has(name))) {
    throw new DomainError('INVALID_ARGUMENT_VALUE', `events is a non-empty list of: ${WEBHOOK_EVENT_NAMES.join(', ')}`, { argument: 'events' });
  }
  // Only the api/v1 object shape is rendered; '9' (Sync v9 shapes) is reserved in the contract.
  if (version !== '1' && version !== 1) throw new DomainError('INVALID_ARGUMENT_VALUE', "version is '1' (api/v1 objects)", { argument: 'version' });
  return { callbackUrl, events: [...new Set(events as WebhookEventName[])], version: '1' };
}
