import { commandUuid, type EdgeReply, edgeReplySchema, type EdgeRequest, edgeRequestSchema, principalSchema, type Principal, requestSubject } from '@doable/contracts-common';
import { z } from 'zod';

const tokenHash = z.string().regex(/^[0-9a-f]{64}$/, 'sha256 hex');

/** Who owns a bearer token. The gateway sends the token's hash: the raw token never leaves the edge. */
export const verifyToken = requestSubject<{ tokenHash: string }, VerifiedToken>(
  'auth.token.verify.v1',
  z.object({ tokenHash }),
  principalSchema.extend({ expiresAt: z.string().nullable().optional() }),
);

/** A verified token's principal, and when the token expires (ISO time; null: never), so no cache trusts it longer. */
export interface VerifiedToken extends Principal {
  readonly expiresAt?: string | null;
}

export const createAccountRequest = z.object({
  email: z.string().trim().toLowerCase().email().max(254),
  fullName: z.string().trim().min(1).max(255),
  /** Checked by auth-oauth against the sign-up policy (length, common, contains the email), which answers the precise tag. */
  password: z.string().min(1).max(1024).optional(),
  timezone: z.string().min(1).max(64).default('UTC'),
});
export type CreateAccountRequest = z.input<typeof createAccountRequest>;
export interface CreateAccountReply {
  readonly userId: string;
  /** The personal API token: returned once, stored only as a hash. */
  readonly token: string;
}
/** The operator's account creation (test systems, tools; never routed by the gateway): its address counts as proven (issue #44). */
export const createAccount = requestSubject<CreateAccountRequest, CreateAccountReply>('auth.account.create.v1', createAccountRequest, z.object({ userId: z.string(), token: z.string() }));

/**
 * The browser pages (sign-up, log-in, settings, application console, consent) and the OAuth 2.0
 * endpoints (token exchange, revocation, migration, discovery), as edge requests from the gateway.
 * Replies carry HTML (`contentType`), redirects (`Location`) and `Set-Cookie` where a page needs them.
 */
export const edge = requestSubject<EdgeRequest, EdgeReply>('auth.edge.v1', edgeRequestSchema, edgeReplySchema);

export const setPasswordRequest = z.object({
  userId: z.string().regex(/^[0-9]+$/),
  password: z.string().min(1).max(1024),
});
export type SetPasswordRequest = z.input<typeof setPasswordRequest>;
/**
 * Operators' tool: sets an account's password (checked against the password policy) and ends its
 * browser sessions. Answers PASSWORD_TOO_SHORT, PASSWORD_CONTAINS_EMAIL, COMMON_PASSWORD or USER_NOT_FOUND.
 */
export const setPassword = requestSubject<SetPasswordRequest, { ok: true }>('auth.account.set-password.v1', setPasswordRequest, z.object({ ok: z.literal(true) }));

export const changeCredentialsRequest = z.object({
  userId: z.string().regex(/^[0-9]+$/),
  currentPassword: z.string().max(1024).nullable(),
  email: z.string().trim().max(254).optional(),
  password: z.string().max(1024).optional(),
  /**
   * The sync command's uuid: auth-oauth changes the credentials once per uuid, so a late copy of
   * a resent request cannot undo a later change. Optional for callers that predate it (they run
   * every time); sync always sends it. The Sync API's rule for command uuids (it is stored).
   */
  uuid: commandUuid.optional(),
});
export type ChangeCredentialsRequest = z.infer<typeof changeCredentialsRequest>;
/**
 * The Sync API's `user_update` email and password change (sync-interface §4.3): needs the current
 * password when the account has one. A new email only starts a change (issue #44): a confirmation
 * link goes to it and the answer keeps the current address (EMAIL_DOMAIN_SSO_ONLY, RATE_LIMITED
 * refuse the change). A second delivery of a `uuid` already run changes nothing
 * and answers what the first did. Answers the account's email after the change, or
 * PASSWORD_REQUIRED, AUTHENTICATION_ERROR, INVALID_EMAIL, EMAIL_ALREADY_EXISTS,
 * PASSWORD_TOO_SHORT, COMMON_PASSWORD, PASSWORD_CONTAINS_EMAIL.
 */
export const changeCredentials = requestSubject<ChangeCredentialsRequest, { email: string }>(
  'auth.account.change-credentials.v1',
  changeCredentialsRequest,
  z.object({ email: z.string() }),
);

export { principalSchema };

export const signWebhookRequest = z.object({ appId: z.string().regex(/^[0-9]+$/), body: z.string().max(1_000_000) });
/**
 * `X-Todoist-Hmac-SHA256` of a webhook body: base64 HMAC-SHA256 under the app's client secret.
 * auth-oauth keeps the secret (encrypted) and signs, so the plain secret never crosses NATS.
 * Answers WEBHOOK_SECRET_UNAVAILABLE when the app has no stored secret to sign with.
 */
export const signWebhook = requestSubject<z.infer<typeof signWebhookRequest>, { signature: string }>(
  'auth.app.sign-webhook.v1',
  signWebhookRequest,
  z.object({ signature: z.string() }),
);
