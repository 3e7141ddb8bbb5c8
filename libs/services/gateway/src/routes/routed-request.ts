import type { Principal } from '@doable/contracts-common';
import type { RouteMatch } from './route-table';

/**
 * A request once the route guard has routed it: the route it matched and, on a bearer route,
 * who sent it. It lives beside the route table rather than beside the guard that sets it: the
 * HTTP pipeline's metrics and 401 challenge read it too, and they sit below the edge.
 */
export interface RoutedRequest {
  method: string;
  path: string;
  /** The client's address (Express: the socket's, or the forwarded one behind trusted proxies). */
  ip?: string;
  routeMatch?: RouteMatch;
  user?: Principal;
  body?: unknown;
}
