/**
 * The embedded mode's database thread: PGlite (WebAssembly, one statement at a time) and its
 * wire endpoint, off the thread that runs HTTP and every service, so the embedded process uses a
 * second core. Started by startEmbeddedPostgres (embedded-postgres.ts); reports `listening` with
 * its port, and on `close` closes the endpoint and PGlite (flushing the data folder) and says
 * `closed`. An uncaught error ends the thread, which its starter treats as the database lost.
 *
 * An entry file, never imported: only relative imports and packages (it runs outside the path
 * aliases, from dist/ or, under Jest, from source through the starter's swc hook).
 */
import { readlinkSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { describeError, type EmbeddedPostgresCommand, type EmbeddedPostgresReport, type EmbeddedPostgresWorkerData } from './embedded-postgres.protocol';
import { startPgliteServer } from './pglite-server';

const port = parentPort;
if (!port) throw new Error('embedded-postgres.worker runs only as a worker thread (startEmbeddedPostgres starts it)');
const report = (message: EmbeddedPostgresReport) => port.postMessage(message);

startPgliteServer(workerData as EmbeddedPostgresWorkerData).then(
  (server) => {
    port.on('message', (command: EmbeddedPostgresCommand) => {
      if (command.kind !== 'close') return;
      server.close().then(
        () => report({ kind: 'closed' }),
        (err: unknown) => report({ kind: 'failed', detail: describeError(err) }),
      );
    });
    report({ kind: 'listening', port: server.port, threadId: osThreadId() });
  },
  // The starter ends the thread once it has this report.
  (err: unknown) => report({ kind: 'failed', detail: describeError(err) }),
);

/** `/proc/thread-self` links to `<pid>/task/<tid>` on Linux; elsewhere there is no such id to give. */
function osThreadId(): number | undefined {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) ? tid : undefined;
  } catch {
    return undefined;
  }
}
