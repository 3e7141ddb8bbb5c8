import { eventSubject } from '@doable/contracts-common';
import { z } from 'zod';

/** What an invitation a stranger can sign up from is to: its sign-up link's `invitation_kind`. */
export const SIGNUP_INVITATION_KINDS = ['project', 'workspace'] as const;
export type SignupInvitationKind = (typeof SIGNUP_INVITATION_KINDS)[number];

/** A new account exists: sync creates the profile and Inbox, plans assigns the default plan. */
export const userCreated = eventSubject(
  'auth.evt.user-created.v1',
  z.object({
    userId: z.string().regex(/^[0-9]+$/),
    email: z.string().email(),
    fullName: z.string(),
    timezone: z.string(),
    lang: z.string().default('en'),
    joinedAt: z.string(),
    hasPassword: z.boolean(),
    /**
     * Whether the account's address is proven (issue #44): made by the operator, or by a single
     * sign-on whose provider verified it. A self sign-up is not until its confirmation link is
     * used (email-verified). Absent (an older release's event): not proven.
     */
    emailVerified: z.boolean().optional(),
    /**
     * The invitation the account was made from (the sign-up page opened from an invitation
     * mail): sync accepts it for the new account when `secret` is the invitation's. `kind` says
     * which table its id is in (project and workspace invitations are numbered apart); events
     * made before workspace invitations were mailed have none, and mean a project's. Absent for
     * any other sign-up.
     */
    invitation: z.object({ id: z.string().regex(/^[0-9]+$/), secret: z.string().min(16).max(200), kind: z.enum(SIGNUP_INVITATION_KINDS).optional() }).optional(),
  }),
);

/** A token stopped working: every gateway replica drops it from its principal cache. */
export const tokenRevoked = eventSubject('auth.evt.token-revoked.v1', z.object({ tokenHash: z.string(), userId: z.string() }));

const uid = z.string().regex(/^[0-9]+$/);

/** Webhook event names of public-api-facts §1.5 that this server produces. */
export const WEBHOOK_EVENT_NAMES = [
  'item:added',
  'item:updated',
  'item:deleted',
  'item:completed',
  'item:uncompleted',
  'note:added',
  'note:updated',
  'note:deleted',
  'project:added',
  'project:updated',
  'project:deleted',
  'project:archived',
  'project:unarchived',
  'section:added',
  'section:updated',
  'section:deleted',
  'section:archived',
  'section:unarchived',
  'label:added',
  'label:deleted',
  'label:updated',
  'filter:added',
  'filter:deleted',
  'filter:updated',
  'reminder:fired',
] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENT_NAMES)[number];

/**
 * An application's webhook as its owner configured it (callbackUrl null: removed). No secret
 * travels: the webhooks service asks auth-oauth to sign each body (AuthSubjects.signWebhook).
 * `changedAt` orders the events of one app (a projection keeps the newest).
 */
export const appWebhookConfigured = eventSubject(
  'auth.evt.app-webhook-configured.v1',
  z.object({
    appId: uid,
    callbackUrl: z.string().nullable(),
    events: z.array(z.enum(WEBHOOK_EVENT_NAMES)),
    version: z.enum(['1', '9']),
    changedAt: z.string(),
  }),
);

/**
 * A user authorised an application (an OAuth token was granted) or no longer does (their last
 * live token of it was revoked). `changedAt` orders the events of one (app, user).
 */
export const appAuthorizationChanged = eventSubject(
  'auth.evt.app-authorization-changed.v1',
  z.object({ appId: uid, userId: uid, authorized: z.boolean(), changedAt: z.string() }),
);

/**
 * Mail that auth-oauth asks for (issue #33): the notifications service renders and sends it
 * from these events, durably and once per event id. `link` carries a single-use secret (the
 * reset or confirmation token; auth-oauth keeps only its hash): it must never be logged, and
 * the mail's stored copy is cleared once sent.
 */
const accountMail = z.object({
  userId: uid,
  /** Where the mail goes. */
  email: z.string().email(),
  fullName: z.string(),
  /** The user's language (templates fall back to English). */
  lang: z.string().default('en'),
  /** The page to open: absolute URL at the product's public address, secret included. */
  link: z.string().url(),
  /** When the link stops working (ISO 8601). */
  expiresAt: z.string(),
});

/** Someone asked to reset this account's password ("forgot password" page). */
export const passwordResetRequested = eventSubject('auth.evt.password-reset-requested.v1', accountMail);

/** A signed-in user asked to change their address: `email` is the new address, to be confirmed. */
export const emailChangeRequested = eventSubject('auth.evt.email-change-requested.v1', accountMail.extend({ previousEmail: z.string().email() }));

/**
 * An address to prove (issue #44): a self sign-up's ("sign-up"), or the one of an unverified
 * account that a single sign-on wants to link to ("sso-link"; confirming it links the provider's
 * person and ends every credential the account had, which nobody proved to own the address).
 */
export const addressConfirmationRequested = eventSubject(
  'auth.evt.address-confirmation-requested.v1',
  accountMail.extend({ reason: z.enum(['sign-up', 'sso-link']), providerName: z.string().optional() }),
);

/** An account's address is proven from now on (its confirmation link used, or a change to it confirmed): sync lets invitations and workspace domains match it. */
export const emailVerified = eventSubject('auth.evt.email-verified.v1', z.object({ userId: uid, email: z.string().email() }));

/**
 * An account's address changed through a confirmed link (the settings page's change, issue #33):
 * sync keeps the profile's email. Every change goes this way since issue #44, the Sync API's
 * `user_update` too: the new address counts only once it confirmed (and is proven then).
 */
export const emailChanged = eventSubject('auth.evt.email-changed.v1', z.object({ userId: uid, email: z.string().email(), previousEmail: z.string().email() }));
