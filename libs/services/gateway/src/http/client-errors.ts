import type { Socket } from 'node:net';
import { DomainError, ERROR_CATALOG, todoistErrorBody } from '@doable/shared-errors';

const REASONS: Readonly<Record<number, string>> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

function refusalFor(err: NodeJS.ErrnoException): DomainError {
  if (err.code === 'HPE_HEADER_OVERFLOW') return new DomainError('HEADERS_TOO_LARGE');
  // Node's own headers or request deadline (server.headersTimeout, server.requestTimeout).
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return new DomainError('REQUEST_TIMEOUT');
  return new DomainError('BAD_REQUEST', 'Malformed HTTP request');
}

/**
 * Requests Node's HTTP parser refuses before Express sees them: a request line or headers over
 * the limit (431), bytes that are not HTTP (400), headers or a body not received in time (408).
 * Node's own answer has no body; a client gets the same coded Todoist error body as for any
 * other refusal. An answer already under way is not corrupted: the connection is only cut.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (!socket.writable || err.code === 'ECONNRESET' || inFlight?.headersSent === true) {
    socket.destroy();
    return;
  }
  const domain = refusalFor(err);
  const status = ERROR_CATALOG[domain.code].http;
  const body = JSON.stringify(todoistErrorBody(domain));
  socket.end(`HTTP/1.1 ${status} ${REASONS[status] ?? 'Bad Request'}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  // end() closes our side only: a client still sending would keep the request (and whatever reads it) open.
  socket.once('finish', () => socket.destroy());
  setTimeout(() => socket.destroy(), 2_000).unref();
}
