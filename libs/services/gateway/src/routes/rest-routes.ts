import type { Route } from './route';

/** REST v1, REST v2 and the api/v1 REST surface, served by the rest service. */
export const REST_ROUTES: readonly Route[] = [];
