import type { Route } from './route';

/** Accounts, pages and the OAuth 2.0 flow, served by auth-oauth. */
export const AUTH_ROUTES: readonly Route[] = [];
