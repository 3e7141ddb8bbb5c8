import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/**
 * The correlation id of the work in progress: taken from the request (`X-Correlation-Id`)
 * or made at the edge, carried across NATS in a header and stamped on every log line.
 */
const storage = new AsyncLocalStorage<{ correlationId: string }>();

export function currentCorrelationId(): string | undefined {
  return storage.getStore()?.correlationId;
}

export function withCorrelationId<T>(correlationId: string | undefined, fn: () => T): T {
  return storage.run({ correlationId: correlationId ?? randomUUID() }, fn);
}

const ACCEPTABLE = /^[A-Za-z0-9._:-]{1,64}$/;

/** A caller-supplied id is used only when it is short and plain (it ends up in logs). */
export function acceptCorrelationId(candidate: unknown): string {
  return typeof candidate === 'string' && ACCEPTABLE.test(candidate) ? candidate : randomUUID();
}

/** Runs `fn` with no correlation id (work that belongs to no request). */
export function withoutCorrelationId<T>(fn: () => T): T {
  return storage.exit(fn);
}
