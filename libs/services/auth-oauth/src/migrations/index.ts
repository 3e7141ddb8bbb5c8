import { CreateAuthSchema1732190000000 } from './1732190000000-create-auth-schema';
import { OauthAppsAndSessions1763720000000 } from './1763720000000-oauth-apps-and-sessions';
import { AppWebhooks1764070000000 } from './1764070000000-app-webhooks';
import { PublicOauthClients1764080000000 } from './1764080000000-public-oauth-clients';
import { CredentialChangeCommandLog1764100000000 } from './1764100000000-credential-change-command-log';
import { TwoFactor1764110000000 } from './1764110000000-two-factor';
import { SsoIdentities1764120000000 } from './1764120000000-sso-identities';
import { AccountLinks1764130000000 } from './1764130000000-account-links';
import { FirstPartyWebClient1764140000000 } from './1764140000000-first-party-web-client';
import { OutboxTraceContext1764300000000 } from './1764300000000-outbox-trace-context';
import { EmailVerification1764440000000 } from './1764440000000-email-verification';
import { SessionBoundTokens1764520000000 } from './1764520000000-session-bound-tokens';

/** In order of application. */
export const authMigrations = [CreateAuthSchema1732190000000, OauthAppsAndSessions1763720000000, AppWebhooks1764070000000, PublicOauthClients1764080000000, CredentialChangeCommandLog1764100000000, TwoFactor1764110000000, SsoIdentities1764120000000, AccountLinks1764130000000, FirstPartyWebClient1764140000000, OutboxTraceContext1764300000000, EmailVerification1764440000000, SessionBoundTokens1764520000000];
