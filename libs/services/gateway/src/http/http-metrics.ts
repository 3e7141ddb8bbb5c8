import type { RequestHandler } from 'express';
import { Counter, Histogram, type Registry } from 'prom-client';
import type { RoutedRequest } from '../routes/routed-request';

/**
 * Request durations by route template (never the raw path: ids would explode the series), and
 * requests per API generation (the route's dialect: `sync-v7`, `first-generation`, `rest-v2`...),
 * so an operator sees who still calls the deprecated ones before setting a sunset date.
 */
export function httpMetrics(registry: Registry): RequestHandler {
  const generations = new Counter({
    name: 'doable_http_requests_by_generation_total',
    help: 'HTTP requests at the gateway per API generation (dialect), with whether it is deprecated and the status class (2xx, 4xx, 5xx)',
    labelNames: ['generation', 'deprecated', 'status_class'],
    registers: [registry],
  });
  const histogram = new Histogram({
    name: 'doable_http_request_seconds',
    help: 'HTTP requests at the gateway',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15],
    registers: [registry],
  });
  return (req, res, next) => {
    const end = histogram.startTimer();
    res.on('finish', () => {
      const routed = req as unknown as RoutedRequest;
      const route = routed.routeMatch?.route.path ?? (/^\/(health\/(live|ready)|metrics)$/.test(req.path) ? req.path : 'unmatched');
      end({ method: req.method, route, status: String(res.statusCode) });
      const dialect = routed.routeMatch?.route.dialect;
      if (dialect) generations.inc({ generation: dialect, deprecated: String(res.hasHeader('Deprecation')), status_class: `${String(res.statusCode)[0]}xx` });
    });
    next();
  };
}
