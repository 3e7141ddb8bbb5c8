export * as AuthSubjects from './subjects';
export * as AuthEvents from './events';
export type { ChangeCredentialsRequest, CreateAccountReply, CreateAccountRequest, SetPasswordRequest, VerifiedToken } from './subjects';
export { hashToken } from './token-hash';
export * as GatewayRevocation from './gateway-revocation';
export { hostOf, isAllowedAddress, type WebhookAddressPolicy, webhookUrlProblem } from './webhook-url-policy';
export { SIGNUP_INVITATION_KINDS, type SignupInvitationKind, WEBHOOK_EVENT_NAMES, type WebhookEventName } from './events';
export { AUTH_ENDPOINTS, type AuthEndpoint, type AuthErrorForm, type AuthHandler, INVITATION_DECLINE_PATH } from './auth-endpoints';
