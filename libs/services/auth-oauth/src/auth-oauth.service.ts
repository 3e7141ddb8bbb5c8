import type { ServiceDefinition } from '@doable/shared-runtime';
import { z } from 'zod';
import { AuthOauthModule } from './auth-oauth.module';
import { authMigrations } from './migrations';

/** Accounts, credentials, personal tokens and (later) OAuth applications. */
export const authOauthService = {
  name: 'auth-oauth',
  defaultPort: 3003,
  env: z.object({}),
  database: { schema: 'auth', migrations: authMigrations },
  imports: () => [AuthOauthModule],
} satisfies ServiceDefinition;
