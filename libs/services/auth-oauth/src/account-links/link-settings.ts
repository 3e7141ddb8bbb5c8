/** What the mailed links are built from and how long they live (auth-oauth's configuration). */
export interface LinkSettings {
  /** Where users reach the product (PUBLIC_URL, no trailing slash): the base of every mailed link. */
  readonly publicUrl: string;
  readonly passwordResetTtlSeconds: number;
  readonly emailChangeTtlSeconds: number;
}

export const LINK_SETTINGS = Symbol('LINK_SETTINGS');

/** Requests per typed address, and links per account, in an hour: enough for a lost mail or two, too few to flood a mailbox. */
export const LINK_REQUESTS_PER_ADDRESS = 5;
export const LINKS_PER_ACCOUNT = 5;
export const LINK_RATE_WINDOW_SECONDS = 3600;

/**
 * The least time a reset request takes to answer, whether or not the address has an account:
 * the work for an account (a transaction, an event) and for none (a count) differ by a few
 * milliseconds, which this floor hides.
 */
export const REQUEST_ANSWER_FLOOR_MS = 300;
