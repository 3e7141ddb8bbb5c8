/**
 * What the embedded database's worker thread (embedded-postgres.worker.ts) and the thread that
 * started it (embedded-postgres.ts) say to each other. Structured-clone data only: no Errors
 * (their class and fields do not survive the copy), so a failure travels as text.
 */
import type { PgliteServerOptions } from './pglite-server';

/** The worker's `workerData`. */
export type EmbeddedPostgresWorkerData = PgliteServerOptions;

/** From the starting thread. */
export type EmbeddedPostgresCommand = { readonly kind: 'close' };

/** From the worker. */
export type EmbeddedPostgresReport =
  /** `threadId`: the thread's OS id (Linux), for reading its CPU time apart from the process's. */
  | { readonly kind: 'listening'; readonly port: number; readonly threadId?: number }
  /** Start or close failed; `detail` is the error's stack (or message). */
  | { readonly kind: 'failed'; readonly detail: string }
  /** PGlite is closed: what it held is in its data folder. */
  | { readonly kind: 'closed' };

export function describeError(err: unknown): string {
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}
