import { DomainError, toWireError } from '@doable/shared-errors';
import { type ArgumentsHost, Catch, Inject, type RpcExceptionFilter } from '@nestjs/common';
import { type Observable, throwError } from 'rxjs';
import { LOGGER, type Logger } from '@doable/shared-logging';
import { infrastructureUnavailable, isInfrastructureFailure } from './infrastructure-failure';

/**
 * Every error leaving a service over the transport becomes a WireError: coded domain errors
 * as they are, an outage of the database or the bus as SERVICE_UNAVAILABLE (the caller
 * retries), anything else as INTERNAL (logged here with its stack, never sent).
 */
@Catch()
export class RpcErrorFilter implements RpcExceptionFilter<unknown> {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  catch(exception: unknown, _host: ArgumentsHost): Observable<never> {
    if (exception instanceof DomainError) return throwError(() => toWireError(exception));
    if (isInfrastructureFailure(exception)) {
      this.logger.warn({ err: exception }, 'request refused: infrastructure unavailable');
      return throwError(() => toWireError(infrastructureUnavailable(exception)));
    }
    this.logger.error({ err: exception }, 'unhandled error in message handler');
    return throwError(() => toWireError(exception));
  }
}
