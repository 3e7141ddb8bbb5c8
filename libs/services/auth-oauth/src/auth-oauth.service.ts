import { GATEWAY_LEASE_MS } from '@doable/contracts-common';
import { env } from '@doable/shared-config';
import type { ServiceDefinition } from '@doable/shared-runtime';
import { z } from 'zod';
import { AuthOauthModule } from './auth-oauth.module';
import { authMigrations } from './migrations';
import { MIGRATED_TOKEN_TTL_SECONDS } from './oauth/oauth-endpoints';
import { ssoProvidersEnv } from './sso/sso-config';

/** Where links point when PUBLIC_URL is not set (the other services' default too). */
const DEFAULT_PUBLIC_URL = env.publicUrl().parse(undefined);

const authOauthEnv = z.object({
  /** Lifetime of a token made by migrate_personal_token (v1 reports it as `expires_in`). */
  OAUTH_MIGRATED_TOKEN_TTL_SECONDS: env.positiveInt(MIGRATED_TOKEN_TTL_SECONDS),
  /** The gateways' REVOCATION_LEASE_MS: a revoke gives up on a silent live gateway after two of them. */
  REVOCATION_LEASE_MS: z.coerce.number().int().min(400).default(GATEWAY_LEASE_MS),
  /** Encrypts the copy of client secrets webhooks are signed with. Empty: a key made by the migration, kept in the database. */
  APP_SECRET_KEY: z.union([z.literal(''), z.string().min(32)]).default(''),
  /** Webhook receivers may be plain http (a self-hosted network); otherwise https only. */
  WEBHOOKS_ALLOW_HTTP: env.bool(false),
  /** Webhook receivers may be loopback, link-local or private addresses; otherwise refused (no SSRF). */
  WEBHOOKS_ALLOW_PRIVATE: env.bool(false),
  /**
   * Development only: client metadata documents may be fetched over plain http and from
   * loopback or private addresses. Off, the fetch reaches public https servers only (SSRF).
   */
  OAUTH_CLIENT_METADATA_ALLOW_PRIVATE: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  /** How long a credential change's command uuid is remembered (sync's variable: the two logs are kept alike). */
  COMMAND_LOG_RETENTION_DAYS: env.positiveInt(30),
  /**
   * Where users reach the product (as rest and sync read it): the base of mailed links. Never
   * taken from a request's Host, which anyone can set (a reset link would point to their site).
   * Optional here, unlike elsewhere: whether it was set decides where the web app's redirect URL
   * comes from (oauth/first-party-client.ts).
   */
  // Not env.publicUrl(): zod fills a default even under .optional(), and "unset" must stay visible.
  PUBLIC_URL: z
    .string()
    .url()
    .transform((url) => url.replace(/\/+$/, ''))
    .optional(),
  /** How long a mailed password-reset link works. */
  PASSWORD_RESET_TTL_SECONDS: env.positiveInt(3600),
  /** How long a mailed email-change confirmation link works. */
  EMAIL_CHANGE_TTL_SECONDS: env.positiveInt(86400),
  /**
   * Single sign-on: a JSON array of OpenID Connect providers (docs/api/accounts.md, "Single sign-on"). Unset:
   * none, and the log-in page is as it was. Client secrets are kept wrapped, never logged.
   */
  OIDC_PROVIDERS: ssoProvidersEnv(),
});

/** Accounts, credentials, personal tokens and (later) OAuth applications. */
export const authOauthService = {
  name: 'auth-oauth',
  defaultPort: 3003,
  env: authOauthEnv,
  database: { schema: 'auth', migrations: authMigrations },
  imports: (config) => [
    AuthOauthModule.configured({
      migratedTokenTtlSeconds: config.OAUTH_MIGRATED_TOKEN_TTL_SECONDS,
      revocationLeaseMs: config.REVOCATION_LEASE_MS,
      appSecretKey: config.APP_SECRET_KEY,
      webhookPolicy: { allowHttp: config.WEBHOOKS_ALLOW_HTTP, allowPrivate: config.WEBHOOKS_ALLOW_PRIVATE },
      metadataAllowPrivate: config.OAUTH_CLIENT_METADATA_ALLOW_PRIVATE,
      commandLogRetentionDays: config.COMMAND_LOG_RETENTION_DAYS,
      // Unset, links use the default address; the web app's redirect URL follows the request's origin instead (oauth/first-party-client.ts).
      links: { publicUrl: config.PUBLIC_URL ?? DEFAULT_PUBLIC_URL, passwordResetTtlSeconds: config.PASSWORD_RESET_TTL_SECONDS, emailChangeTtlSeconds: config.EMAIL_CHANGE_TTL_SECONDS },
      ssoProviders: config.OIDC_PROVIDERS,
      webAppOrigin: config.PUBLIC_URL ?? null,
    }),
  ],
} satisfies ServiceDefinition<typeof authOauthEnv>;
