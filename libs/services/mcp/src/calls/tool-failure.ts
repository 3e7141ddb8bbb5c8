import { DomainError, ERROR_CATALOG } from '@doable/shared-errors';

/**
 * What a tool answers when the operation it ran was refused: the Todoist error tag (what every
 * other interface would have answered) and its message. Shown to the assistant as a tool error
 * (`isError: true`), never as a transport failure: the conversation goes on.
 */
export class ToolFailure extends Error {
  constructor(
    readonly tag: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ToolFailure';
  }

  static fromDomain(err: DomainError): ToolFailure {
    return new ToolFailure(ERROR_CATALOG[err.code].tag, err.message, err.extra);
  }
}

/**
 * A refused token is not a tool's failure: it must reach the client as HTTP 401 with a
 * challenge, so it re-authorises (an expired token shown as a tool error is a known failure of
 * the hosted server). Tools rethrow it and the endpoint turns it back into AUTH_REQUIRED.
 */
export function isAuthFailure(err: unknown): boolean {
  return err instanceof DomainError && err.code === 'AUTH_REQUIRED';
}
