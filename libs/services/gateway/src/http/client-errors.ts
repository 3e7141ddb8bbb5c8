import type { Socket } from 'node:net';
import { DomainError, ERROR_CATALOG, todoistErrorBody } from '@doable/shared-errors';

/**
 * Requests Node's HTTP parser refuses before Express sees them: a request line or headers over
 * the limit (431), or bytes that are not HTTP (400). Node's own answer has no body; a client
 * gets the same coded Todoist error body as for any other refusal.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable || err.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const domain = err.code === 'HPE_HEADER_OVERFLOW' ? new DomainError('HEADERS_TOO_LARGE') : new DomainError('BAD_REQUEST', 'Malformed HTTP request');
  const status = ERROR_CATALOG[domain.code].http;
  const body = JSON.stringify(todoistErrorBody(domain));
  const reason = status === 431 ? 'Request Header Fields Too Large' : 'Bad Request';
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}
