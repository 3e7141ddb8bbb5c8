import { REST_ENDPOINTS, REST_PREFIXES, RestSubjects } from '@doable/contracts-rest';
import type { Route } from './route';

/** REST v1, REST v2 and the api/v1 REST surface, served by the rest service (one row per surface). */
export const REST_ROUTES: readonly Route[] = REST_ENDPOINTS.flatMap((endpoint) =>
  endpoint.surfaces.map((surface) => ({
    method: endpoint.method,
    path: `${REST_PREFIXES[surface]}${endpoint.path}`,
    subject: RestSubjects.edge,
    dialect: surface,
    auth: 'bearer' as const,
  })),
);
