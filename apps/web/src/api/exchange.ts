import { TransientSendError } from './command-queue';

/**
 * How long one exchange with the server may take, its answer's body included. The command queue
 * sends one request at a time, so a connection that hangs (a proxy that never answers, a laptop
 * that slept mid-request) would hold every later command for good. Past this bound the request
 * counts as lost and the queue sends again: sync commands carry uuids, so a resend runs once.
 * A minute leaves a 3 MB full sync room on a slow connection.
 */
export const EXCHANGE_DEADLINE_MS = 60_000;

/** An answer read whole: its status, and its body as JSON (null when it has none or is not JSON). */
export interface Answer {
  status: number;
  ok: boolean;
  body: unknown;
}

/**
 * A fetch and the read of its answer's body under one deadline. No answer, a network error, a
 * body cut short or the deadline passing all throw TransientSendError (the caller may resend).
 */
export async function exchange(url: string, init: RequestInit, deadlineMs = EXCHANGE_DEADLINE_MS): Promise<Answer> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), deadlineMs);
  try {
    const response = await fetch(url, { ...init, signal: controller.signal });
    const text = response.status === 204 ? '' : await response.text();
    return { status: response.status, ok: response.ok, body: jsonOrNull(text) };
  } catch (err) {
    if (controller.signal.aborted) throw new TransientSendError(`No answer within ${deadlineMs / 1000} s`);
    throw new TransientSendError(err instanceof Error ? err.message : 'network error');
  } finally {
    clearTimeout(timer);
  }
}

function jsonOrNull(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
