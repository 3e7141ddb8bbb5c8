import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { describeError, type EmbeddedPostgresCommand, type EmbeddedPostgresReport, type EmbeddedPostgresWorkerData } from './embedded-postgres.protocol';
import { startPgliteServer } from './pglite-server';

/**
 * Embedded mode's database: PGlite (PostgreSQL compiled to WebAssembly) served over the
 * Postgres wire protocol, so the services use the very same `pg`/TypeORM code as in a cluster.
 *
 * PGlite and its endpoint run in a worker thread (embedded-postgres.worker.ts): PGlite's
 * WebAssembly and the wire framing then take a core of their own instead of competing with HTTP
 * and every service for the process's one event loop. Nothing in this thread holds the PGlite
 * object; everything (services, migrations, the CLI) reaches it over the wire, as in a cluster.
 *
 * PGlite is a single backend: statements from all connections run one at a time and an open
 * transaction blocks the others. The services therefore never await another connection, a
 * message or HTTP inside a transaction (good practice anyway), and keep transactions short.
 * Clients reach it through a serialising proxy (serializing-proxy.ts) so that one connection's
 * protocol cycle is never interleaved with another's.
 */
export interface EmbeddedPostgres {
  readonly url: string;
  readonly port: number;
  /** The database thread's OS id (Linux only): its CPU time is /proc/<pid>/task/<threadId>/stat. */
  readonly threadId?: number;
  /** Closes the endpoint and PGlite (what it holds reaches its data folder), then ends the thread. */
  close(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  /** Folder that keeps the data between runs; `memory://` for a throwaway database. */
  readonly dataDir: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** At least the sum of every service's pool size. */
  readonly maxConnections: number;
  /**
   * A throwaway (`memory://`) database starts as a copy of this data folder archive
   * (dumpEmbeddedPostgres) instead of an empty cluster: PGlite's initdb takes seconds of
   * WebAssembly, and loading an archive of an already migrated one a fraction of that.
   */
  readonly initialData?: string;
  /**
   * The database thread ended without close() (a crash, or PGlite's memory exhausted). Every
   * query fails from then on, so the caller ends what depends on it rather than serve errors.
   */
  readonly onLost: (error: Error) => void;
}

/** The wire endpoint's address (pglite-socket takes any user and ignores the database name). */
function endpointUrl(port: number): string {
  return `postgres://postgres@127.0.0.1:${port}/postgres`;
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const { onLost, ...serverOptions } = options;
  const worker = startWorker(serverOptions);
  let closing = false;
  /** The thread's uncaught error, reported by 'error' just before its 'exit'. */
  let crash: Error | undefined;
  const reports: Array<(report: EmbeddedPostgresReport) => void> = [];
  worker.on('message', (report: EmbeddedPostgresReport) => reports.shift()?.(report));
  worker.on('error', (err) => (crash = err));
  const exited = new Promise<number>((resolve) => worker.once('exit', resolve));
  /** The worker's next report, or its exit (with why) if it ends first. */
  const nextReport = () =>
    Promise.race([
      new Promise<EmbeddedPostgresReport>((resolve) => reports.push(resolve)),
      exited.then((code): EmbeddedPostgresReport => ({ kind: 'failed', detail: crash ? describeError(crash) : `the database thread exited with code ${code}` })),
    ]);

  const ready = await nextReport();
  if (ready.kind !== 'listening') {
    await worker.terminate();
    throw new Error(`the embedded database could not start: ${ready.kind === 'failed' ? ready.detail : ready.kind}`);
  }
  void exited.then((code) => {
    if (!closing) onLost(new Error(`the embedded database's thread ended unexpectedly: ${crash ? describeError(crash) : `exit code ${code}`}`));
  });

  let closed: Promise<void> | undefined;
  const close = async () => {
    closing = true;
    const command: EmbeddedPostgresCommand = { kind: 'close' };
    const answer = nextReport();
    worker.postMessage(command);
    const report = await answer;
    await worker.terminate();
    if (report.kind === 'failed') throw new Error(`the embedded database did not close cleanly: ${report.detail}`);
  };
  return {
    url: endpointUrl(ready.port),
    port: ready.port,
    threadId: ready.threadId,
    close: () => (closed ??= close()),
  };
}

/**
 * The worker entry sits beside this file: compiled (dist/, `npm start`, the bench, the e2e
 * systems) it is JavaScript that Node loads as is; from TypeScript sources (Jest's integration
 * tier) the thread first compiles `.ts` modules with swc as they are required, as Jest does in
 * this thread.
 */
function startWorker(workerData: EmbeddedPostgresWorkerData): Worker {
  if (!__filename.endsWith('.ts')) return new Worker(join(__dirname, 'embedded-postgres.worker.js'), { workerData });
  const entry = join(__dirname, 'embedded-postgres.worker.ts');
  const fromSource = `
    const { readFileSync } = require('node:fs');
    const { createRequire } = require('node:module');
    const entry = ${JSON.stringify(entry)};
    const load = createRequire(entry);
    const { transformSync } = load('@swc/core');
    require.extensions['.ts'] = (module, filename) => {
      const { code } = transformSync(readFileSync(filename, 'utf8'), { filename, swcrc: false, jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } });
      module._compile(code, filename);
    };
    load(entry);`;
  return new Worker(fromSource, { eval: true, workerData });
}

/**
 * Makes the archive `initialData` starts from: an empty in-memory PGlite, prepared by `prepare`
 * (given its wire URL: run migrations there), then its data folder written to `file` (through a
 * temporary name, so a reader never sees half a file).
 */
export async function dumpEmbeddedPostgres(file: string, prepare: (url: string) => Promise<void>): Promise<void> {
  // In this thread: a one-off (the test fixtures), which reads PGlite's data folder when done.
  const server = await startPgliteServer({ dataDir: 'memory://', port: 0, maxConnections: 8 });
  try {
    try {
      await prepare(endpointUrl(server.port));
    } finally {
      await server.stopServing();
    }
    const archive = await server.dump();
    const partial = `${file}.${process.pid}.partial`;
    await writeFile(partial, Buffer.from(await archive.arrayBuffer()));
    await rename(partial, file);
  } finally {
    await server.close();
  }
}
