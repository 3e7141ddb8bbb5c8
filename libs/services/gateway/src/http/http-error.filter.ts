import { LOGGER, type Logger } from '@doable/shared-logging';
import { type ArgumentsHost, Catch, type ExceptionFilter, Inject } from '@nestjs/common';
import { authChallengeFor } from './auth-challenge';
import { logEdgeRefusal } from './edge-refusal-log';
import { toDomainError, writeHttpError, type HttpResponseLike } from './http-errors';

/** Nest's side of the one error mapper; every refusal is logged here, once, at its level. */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const domain = toDomainError(exception);
    logEdgeRefusal(this.logger, domain, exception);
    const http = host.switchToHttp();
    writeHttpError(http.getResponse<HttpResponseLike>(), domain, authChallengeFor(http.getRequest()));
  }
}
