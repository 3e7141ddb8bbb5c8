import { openApiDocument } from '@doable/contracts-rest';
import type { RequestHandler } from 'express';
import { openApiDocsPage } from './openapi-docs-page';

/**
 * `GET /openapi.json` and `GET /docs`: the REST description, public (it describes the API, not
 * anyone's data), computed once per process (it only changes with the code) and cacheable for
 * an hour. The server URL is relative, so the document is right behind any host or proxy.
 */
export function openApiRoutes(): RequestHandler {
  const document = openApiDocument({ serverUrl: '/' });
  const json = JSON.stringify(document);
  const html = openApiDocsPage(document);
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path !== '/openapi.json' && req.path !== '/docs') return next();
    res.setHeader('Cache-Control', 'public, max-age=3600');
    if (req.path === '/openapi.json') res.type('application/json').send(json);
    else res.type('text/html; charset=utf-8').send(html);
  };
}
