import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { ERROR_CATALOG, todoistErrorBody } from '@doable/shared-errors';
import { toDomainError } from '../http/http-errors';

/**
 * A WebSocket upgrade refused: an HTTP answer with the coded Todoist error body (as for any other
 * refusal), written on the raw socket since no Express response exists for an upgrade.
 */
export function refuseUpgrade(socket: Duplex, err: unknown): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const domain = toDomainError(err);
  const status = ERROR_CATALOG[domain.code].http;
  const body = JSON.stringify(todoistErrorBody(domain));
  const extra = domain.code === 'AUTH_REQUIRED' ? 'WWW-Authenticate: Bearer\r\n' : '';
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}Connection: close\r\n\r\n${body}`,
  );
}
