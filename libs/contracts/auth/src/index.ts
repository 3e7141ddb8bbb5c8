export * as AuthSubjects from './subjects';
export * as AuthEvents from './events';
export type { ChangeCredentialsRequest, CreateAccountReply, CreateAccountRequest, SetPasswordRequest, VerifiedToken } from './subjects';
export { hashToken } from './token-hash';
export * as GatewayRevocation from './gateway-revocation';
