export { authOauthService } from './auth-oauth.service';
export { AccountService, type NewAccount } from './accounts/account.service';
export { hashPassword, verifyPassword } from './passwords/password-hasher';
export { generatePersonalToken } from './tokens/personal-token';
export { authMigrations } from './migrations';
export { OAuthAppService, type OAuthApp } from './oauth/oauth-app.service';
export { NatsRevocationBarrier, type RevocationBarrier } from './tokens/revocation-barrier';
export { OutboxDeliveryBarrier } from './tokens/outbox-delivery-barrier';
