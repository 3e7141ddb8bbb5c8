import { acceptCorrelationId, type Logger, withCorrelationId } from '@doable/shared-logging';
import type { INestApplication } from '@nestjs/common';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { checkFormBytes, checkUtf8Bytes } from './body-encoding';
import { checkFormValues, checkJsonBody, checkJsonBytes } from './body-shape';
import { logEdgeRefusal } from './edge-refusal-log';
import { toDomainError, writeHttpError } from './http-errors';
import { httpSpans } from './http-spans';

export interface HttpPipelineOptions {
  readonly bodyLimitBytes: number;
  /** Where refused bodies are reported (as client faults). */
  readonly logger?: Logger;
  /** First of all (the request metrics, which time the whole request). */
  readonly first?: readonly RequestHandler[];
  /** After the body is read: paths answered outside the route table (the OpenAPI document, the web app). */
  readonly then?: readonly RequestHandler[];
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
    // A browser client may read an old generation's deprecation marks too (generations/deprecation-notices).
    res.setHeader('Access-Control-Expose-Headers', 'X-Correlation-Id, Retry-After, Deprecation, Sunset, Link');
    if (req.method !== 'OPTIONS' || !req.header('access-control-request-method')) return next();
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS');
    res.setHeader('Access-Control-Allow-Headers', req.header('access-control-request-headers') ?? 'Authorization, Content-Type, X-Request-Id');
    res.setHeader('Access-Control-Max-Age', '86400');
    res.status(204).end();
  };
}

/** The raw bytes of a JSON body, kept for the checks that follow parsing. */
const RAW_JSON = Symbol('rawJson');
type WithRawJson = Request & { [RAW_JSON]?: Buffer };

/**
 * Body parsers, and the checks that keep a hostile body from becoming anyone else's problem:
 * bytes must be valid UTF-8, JSON (and JSON text in form fields) at most MAX_BODY_DEPTH deep,
 * a JSON body an object, a form at most 10,000 parameters. Every refusal is a coded 4xx,
 * logged as a client fault.
 */
function body(options: HttpPipelineOptions): RequestHandler {
  const parsers: RequestHandler[] = [
    // JSON text in the query string (`ids=[...]`) is held to the same depth as a body.
    (req, _res, next) => {
      checkFormValues(req.query);
      next();
    },
    express.json({
      limit: options.bodyLimitBytes,
      // Not strict, so that `null`, a string or an array are parsed and then refused with their own code.
      strict: false,
      type: ['application/json', 'application/*+json'],
      verify: (req, _res, raw, charset) => {
        checkUtf8Bytes(raw, charset);
        checkJsonBytes(raw);
        (req as WithRawJson)[RAW_JSON] = raw;
      },
    }),
    express.urlencoded({ limit: options.bodyLimitBytes, extended: false, parameterLimit: 10_000, verify: (_req, _res, raw, charset) => checkFormBytes(raw, charset) }),
    // A body is parsed by one of the two (the form parser skips a body already read): checked as what it was.
    (req, _res, next) => {
      const raw = (req as WithRawJson)[RAW_JSON];
      if (raw) checkJsonBody(req.body, raw);
      else if (req.body && typeof req.body === 'object' && req.is('application/x-www-form-urlencoded')) {
        checkFormValues(req.body as Record<string, unknown>);
      }
      next();
    },
  ];
  return (req: Request, res: Response, next: NextFunction) => {
    let index = 0;
    const step = (err?: unknown): void => {
      if (err) return refuse(options.logger, res, err);
      const parser = parsers[index++];
      if (!parser) return next();
      try {
        parser(req, res, step);
      } catch (thrown) {
        refuse(options.logger, res, thrown);
      }
    };
    step();
  };
}

function refuse(logger: Logger | undefined, res: Response, err: unknown): void {
  if (logger) logEdgeRefusal(logger, toDomainError(err), err);
  writeHttpError(res, err);
}

/**
 * Middlewares run in order as one Express layer. Express's router does work for each layer of
 * every request (its path match, parseurl, its check for a returned promise, its restoring of
 * request fields): the gateway's seven app-wide steps go through it once, not seven times. A step
 * passes on with next() or answers; an error, thrown, passed or a rejected promise, goes to
 * Express as from any layer.
 */
export function inOneLayer(handlers: readonly RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    let index = 0;
    const step = (err?: unknown): void => {
      if (err !== undefined && err !== null) return next(err);
      const handler = handlers[index++];
      if (!handler) return next();
      try {
        const returned: unknown = handler(req, res, step);
        if (returned instanceof Promise) returned.catch((rejected: unknown) => next(rejected ?? new Error('Rejected promise')));
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };
}

/**
 * The gateway's HTTP pipeline, in order: `first`, the request's span, correlation id, CORS, body
 * limits and parsing, then `then`; before the routes (Nest's controllers).
 */
export function configureHttpPipeline(app: INestApplication, options: HttpPipelineOptions): void {
  const express = app.getHttpAdapter().getInstance() as { disable(setting: string): void; set(setting: string, value: unknown): void };
  express.disable('x-powered-by');
  express.set('query parser', 'extended');
  app.use(inOneLayer([...(options.first ?? []), httpSpans(), correlation(), cors(), body(options), ...(options.then ?? [])]));
}
