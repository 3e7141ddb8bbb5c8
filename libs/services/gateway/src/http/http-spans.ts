import { contextFromCarrier, isTracingActive, SpanKind, startSpan, withTraceContext } from '@doable/shared-logging';
import { SpanStatusCode } from '@opentelemetry/api';
import type { RequestHandler } from 'express';
import type { RoutedRequest } from '../routes/routed-request';

/**
 * The root of a request's trace (issue #34): a server span per HTTP request, continuing the
 * caller's trace when it sends a W3C `traceparent`. Every span the request causes (NATS
 * requests, commands, SQL, the outbox and its consumers) descends from it. Named by route
 * template once the route is known, never by the raw path's ids; the query string (which
 * may carry a token on the oldest generations) is never recorded.
 */
export function httpSpans(): RequestHandler {
  return (req, res, next) => {
    // Untraced (no collector set), a span would record nothing: no attributes, closures or listeners per request.
    if (!isTracingActive()) return next();
    const parent = contextFromCarrier((key) => req.header(key));
    const { span, context } = startSpan(`${req.method}`, {
      kind: SpanKind.SERVER,
      parent,
      attributes: { 'http.request.method': req.method, 'url.path': req.path },
    });
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      const route = (req as unknown as RoutedRequest).routeMatch?.route;
      if (route) {
        span.updateName(`${req.method} ${route.path}`);
        span.setAttributes({ 'http.route': route.path, 'doable.generation': route.dialect });
      }
      span.setAttribute('http.response.status_code', res.statusCode);
      // A 4xx is the client's (OpenTelemetry's HTTP conventions): only a 5xx marks the server span failed.
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    };
    res.on('finish', end);
    res.on('close', end);
    withTraceContext(context, next);
  };
}
