export { gatewayService } from './gateway.service-definition';
export { RouteTable, ROUTES, type Route } from './routes/route-table';
export { PrincipalCache } from './auth/principal-cache';
