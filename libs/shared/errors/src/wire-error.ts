/**
 * How an error crosses a process boundary: a code and plain data, never a class instance.
 * `code` is one of the names in the error catalogue (error-catalog.ts).
 */
export interface WireError {
  readonly code: string;
  readonly message: string;
  readonly extra?: Record<string, unknown>;
}

export function isWireError(value: unknown): value is WireError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as WireError).code === 'string' &&
    typeof (value as WireError).message === 'string'
  );
}
