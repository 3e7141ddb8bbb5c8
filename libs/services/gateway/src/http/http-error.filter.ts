import { LOGGER, type Logger } from '@doable/shared-logging';
import { type ArgumentsHost, Catch, type ExceptionFilter, Inject } from '@nestjs/common';
import { toDomainError, writeHttpError, type HttpResponseLike } from './http-errors';

/** Nest's side of the one error mapper; unexpected errors are logged here, once. */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const domain = toDomainError(exception);
    if (domain.code === 'INTERNAL') this.logger.error({ err: exception }, 'unhandled error at the edge');
    else if (domain.code === 'SERVICE_UNAVAILABLE') this.logger.warn({ extra: domain.extra }, 'upstream unavailable');
    writeHttpError(host.switchToHttp().getResponse<HttpResponseLike>(), domain);
  }
}
