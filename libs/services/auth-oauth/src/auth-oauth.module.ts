import { COMMAND_LOG_RETENTION_DAYS, COMMAND_LOG_TABLE, CommandLogRetention } from '@doable/shared-runtime';
import { type DynamicModule, Module } from '@nestjs/common';
import { AccountService } from './accounts/account.service';
import { CommandLogRepository } from './accounts/command-log.repository';
import { AuthorizePages } from './web/authorize-pages';
import { ClientResolver, METADATA_FETCH_POLICY } from './oauth/client-resolver';
import { OAuthAppService } from './oauth/oauth-app.service';
import { MIGRATED_TOKEN_TTL, OAuthEndpoints } from './oauth/oauth-endpoints';
import { LegacyLogin } from './oauth/legacy-login';
import { OAuthService } from './oauth/oauth.service';
import { AuthEdgeRpcController } from './rpc/auth-edge.rpc-controller';
import { AuthRpcController } from './rpc/auth.rpc-controller';
import { SessionService } from './sessions/session.service';
import { REVOCATION_LEASE, RevocationBarrierCloser, revocationBarrierProvider } from './tokens/revocation-barrier.provider';
import { TokenService } from './tokens/token.service';
import { AccountPages } from './web/account-pages';
import { AppSessionEndpoints } from './sessions/app-session.endpoints';
import { AppSecretBox, APP_SECRET_KEY } from './secrets/app-secret-box';
import { AppWebhookEndpoints } from './webhooks/app-webhook.endpoints';
import { AppWebhookRepository } from './webhooks/app-webhook.repository';
import { AppWebhookService, WEBHOOK_ADDRESS_POLICY } from './webhooks/app-webhook.service';
import type { WebhookAddressPolicy } from '@doable/contracts-auth';
import { PendingLogin } from './two-factor/pending-login';
import { TwoFactorPages } from './web/two-factor-pages';
import { TwoFactorService } from './two-factor/two-factor.service';
import { AccountLinkRepository } from './account-links/account-link.repository';
import { LINK_SETTINGS, type LinkSettings } from './account-links/link-settings';
import { WEB_APP_ORIGIN } from './oauth/first-party-client';
import { AddressConfirmationPages, EmailChangePages } from './email-change/email-change.pages';
import { AddressConfirmationService } from './address-confirmation/address-confirmation.service';
import { SsoAccountProof } from './sso/sso-account-proof';
import { EmailChangeService } from './email-change/email-change.service';
import { ADDRESS_CHANGES } from './accounts/address-changes';
import { PasswordResetPages } from './password-reset/password-reset.pages';
import { InvitationDeclinePages } from './invitations/invitation-decline.pages';
import { PasswordResetService } from './password-reset/password-reset.service';
import { OidcClient } from './sso/oidc-client';
import { SsoAccounts } from './sso/sso-accounts';
import type { SsoProvider } from './sso/sso-config';
import { SsoLogins } from './sso/sso-logins';
import { SsoPages } from './web/sso-pages';
import { SSO_PROVIDERS } from './sso/sso-providers.token';

@Module({
  controllers: [AuthRpcController, AuthEdgeRpcController],
  providers: [
    revocationBarrierProvider,
    RevocationBarrierCloser,
    AccountService,
    CommandLogRepository,
    CommandLogRetention,
    TokenService,
    SessionService,
    AppSessionEndpoints,
    OAuthAppService,
    OAuthService,
    AccountPages,
    AuthorizePages,
    ClientResolver,
    OAuthEndpoints,
    LegacyLogin,
    AppSecretBox,
    AppWebhookRepository,
    AppWebhookService,
    AppWebhookEndpoints,
    TwoFactorService,
    PendingLogin,
    TwoFactorPages,
    AccountLinkRepository,
    PasswordResetService,
    PasswordResetPages,
    EmailChangeService,
    // The account service's address changes (user_update), by the interface accounts declares.
    { provide: ADDRESS_CHANGES, useExisting: EmailChangeService },
    EmailChangePages,
    AddressConfirmationService,
    AddressConfirmationPages,
    InvitationDeclinePages,
    OidcClient,
    SsoAccountProof,
    SsoAccounts,
    SsoLogins,
    SsoPages,
  ],
  exports: [AccountService],
})
export class AuthOauthModule {
  static configured(options: { migratedTokenTtlSeconds: number; revocationLeaseMs: number; appSecretKey: string; webhookPolicy: WebhookAddressPolicy; metadataAllowPrivate: boolean; commandLogRetentionDays: number; links: LinkSettings; ssoProviders: readonly SsoProvider[]; webAppOrigin: string | null }): DynamicModule {
    return {
      module: AuthOauthModule,
      providers: [
        { provide: APP_SECRET_KEY, useValue: options.appSecretKey },
        { provide: WEBHOOK_ADDRESS_POLICY, useValue: options.webhookPolicy },
        { provide: MIGRATED_TOKEN_TTL, useValue: options.migratedTokenTtlSeconds },
        { provide: REVOCATION_LEASE, useValue: options.revocationLeaseMs },
        { provide: METADATA_FETCH_POLICY, useValue: { allowPrivate: options.metadataAllowPrivate } },
        { provide: COMMAND_LOG_RETENTION_DAYS, useValue: options.commandLogRetentionDays },
        { provide: COMMAND_LOG_TABLE, useValue: 'auth.command_log' },
        { provide: LINK_SETTINGS, useValue: options.links },
        { provide: SSO_PROVIDERS, useValue: options.ssoProviders },
        { provide: WEB_APP_ORIGIN, useValue: options.webAppOrigin },
      ],
    };
  }
}
