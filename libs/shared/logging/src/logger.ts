import type { LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';
import { currentCorrelationId } from './correlation';

/** Never written to a log, wherever they appear. */
export const REDACTED_PATHS = [
  'password',
  '*.password',
  'token',
  '*.token',
  'access_token',
  '*.access_token',
  'client_secret',
  '*.client_secret',
  'authorization',
  '*.authorization',
  'headers.authorization',
  '*.headers.authorization',
  'req.headers.authorization',
  'req.headers.cookie',
];

export function createLogger(service: string, level: string): Logger {
  return pino({
    level,
    base: { service },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    mixin: () => {
      const correlationId = currentCorrelationId();
      return correlationId ? { correlationId } : {};
    },
  });
}

/** Nest's logger interface over pino: framework messages become structured lines too. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string): void {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string): void {
    this.logger.trace({ context }, String(message));
  }
}

export type { Logger };

/** Nest injection token of the service's pino logger. */
export const LOGGER = Symbol('LOGGER');
