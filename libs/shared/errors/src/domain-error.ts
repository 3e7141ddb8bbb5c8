import { isWireError, type WireError } from './wire-error';
import { ERROR_CATALOG, type ErrorCode, isErrorCode } from './error-catalog';

/** The only error a service throws on purpose. Services never throw HTTP exceptions. */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message ?? ERROR_CATALOG[code].message);
    this.name = 'DomainError';
  }

  toWire(): WireError {
    return { code: this.code, message: this.message, extra: this.extra };
  }

  static fromWire(wire: WireError): DomainError {
    // A code this build does not know (a newer peer) is still an error: keep its message.
    return isErrorCode(wire.code)
      ? new DomainError(wire.code, wire.message, wire.extra ?? {})
      : new DomainError('INTERNAL', wire.message, { remoteCode: wire.code });
  }
}

/** Anything thrown, as a wire error; unknown errors lose their internals on purpose. */
export function toWireError(err: unknown): WireError {
  if (err instanceof DomainError) return err.toWire();
  if (isWireError(err) && isErrorCode(err.code)) return err;
  return { code: 'INTERNAL', message: ERROR_CATALOG.INTERNAL.message };
}
