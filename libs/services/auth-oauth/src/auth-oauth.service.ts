import { GatewayRevocation } from '@doable/contracts-auth';
import { env } from '@doable/shared-config';
import type { ServiceDefinition } from '@doable/shared-runtime';
import { z } from 'zod';
import { AuthOauthModule } from './auth-oauth.module';
import { authMigrations } from './migrations';
import { MIGRATED_TOKEN_TTL_SECONDS } from './oauth/oauth-endpoints';

const authOauthEnv = z.object({
  /** Lifetime of a token made by migrate_personal_token (v1 reports it as `expires_in`). */
  OAUTH_MIGRATED_TOKEN_TTL_SECONDS: env.positiveInt(MIGRATED_TOKEN_TTL_SECONDS),
  /** The gateways' REVOCATION_LEASE_MS: a revoke gives up on a silent live gateway after two of them. */
  REVOCATION_LEASE_MS: z.coerce.number().int().min(400).default(GatewayRevocation.GATEWAY_LEASE_MS),
  /**
   * Development only: client metadata documents may be fetched over plain http and from
   * loopback or private addresses. Off, the fetch reaches public https servers only (SSRF).
   */
  OAUTH_CLIENT_METADATA_ALLOW_PRIVATE: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
});

/** Accounts, credentials, personal tokens and (later) OAuth applications. */
export const authOauthService = {
  name: 'auth-oauth',
  defaultPort: 3003,
  env: authOauthEnv,
  database: { schema: 'auth', migrations: authMigrations },
  imports: (config) => [AuthOauthModule.configured({ migratedTokenTtlSeconds: config.OAUTH_MIGRATED_TOKEN_TTL_SECONDS, revocationLeaseMs: config.REVOCATION_LEASE_MS, metadataAllowPrivate: config.OAUTH_CLIENT_METADATA_ALLOW_PRIVATE })],
} satisfies ServiceDefinition<typeof authOauthEnv>;
