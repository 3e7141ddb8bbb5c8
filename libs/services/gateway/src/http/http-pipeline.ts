import { acceptCorrelationId, withCorrelationId } from '@doable/shared-logging';
import type { INestApplication } from '@nestjs/common';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { writeHttpError } from './http-errors';

export interface HttpPipelineOptions {
  readonly bodyLimitBytes: number;
}

/** Paths of the OAuth browser flow: no CORS there (sync-interface §5.10). */
const OAUTH_FLOW = /^\/oauth\//;

function correlation(): RequestHandler {
  return (req, res, next) => {
    const id = acceptCorrelationId(req.header('x-correlation-id') ?? req.header('x-request-id'));
    res.setHeader('X-Correlation-Id', id);
    withCorrelationId(id, next);
  };
}

/** Every endpoint outside the OAuth flow answers any origin, without credentials. */
function cors(): RequestHandler {
  return (req, res, next) => {
    if (OAUTH_FLOW.test(req.path)) return next();
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Credentials', 'false');
    res.setHeader('Access-Control-Expose-Headers', 'X-Correlation-Id, Retry-After');
    if (req.method !== 'OPTIONS' || !req.header('access-control-request-method')) return next();
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS');
    res.setHeader('Access-Control-Allow-Headers', req.header('access-control-request-headers') ?? 'Authorization, Content-Type, X-Request-Id');
    res.setHeader('Access-Control-Max-Age', '86400');
    res.status(204).end();
  };
}

/** Body parsers whose failures (malformed JSON, too large) go through the one error mapper. */
function body(options: HttpPipelineOptions): RequestHandler {
  const parsers = [
    express.json({ limit: options.bodyLimitBytes, strict: false, type: ['application/json', 'application/*+json'] }),
    express.urlencoded({ limit: options.bodyLimitBytes, extended: false, parameterLimit: 10_000 }),
  ];
  return (req: Request, res: Response, next: NextFunction) => {
    let index = 0;
    const step = (err?: unknown): void => {
      if (err) return writeHttpError(res, err);
      const parser = parsers[index++];
      if (!parser) return next();
      parser(req, res, step);
    };
    step();
  };
}

/** The gateway's HTTP pipeline, in order: correlation id, CORS, body limits and parsing. */
export function configureHttpPipeline(app: INestApplication, options: HttpPipelineOptions): void {
  const express = app.getHttpAdapter().getInstance() as { disable(setting: string): void; set(setting: string, value: unknown): void };
  express.disable('x-powered-by');
  express.set('query parser', 'extended');
  app.use(correlation(), cors(), body(options));
}
