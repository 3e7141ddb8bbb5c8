import type { Tx } from '@doable/shared-runtime';

/**
 * What the Sync API's address change (`user_update` with `email`) asks of the address-change
 * flow (email-change/EmailChangeService implements it). Declared here, beside the account
 * service that calls it, so accounts does not import the flow, whose pages sit above web/ and
 * web/ above accounts: the arrow points down.
 */
export interface AddressChanges {
  /** Whether the address is of a domain whose people must sign on (no password may move there). */
  ssoOnly(email: string): boolean;
  /** Mails the new address its confirmation link in `tx`; `sent: false` names why not. */
  issue(tx: Tx, userId: string, account: { email: string; fullName: string }, email: string): Promise<{ readonly sent: true } | { readonly sent: false; readonly tag: string }>;
}

export const ADDRESS_CHANGES = Symbol('ADDRESS_CHANGES');
