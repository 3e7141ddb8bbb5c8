import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import type { Server } from 'node:net';
import { startSerializingProxy } from './serializing-proxy';

/**
 * Embedded mode's database: PGlite (PostgreSQL compiled to WebAssembly) served over the
 * Postgres wire protocol, so the services use the very same `pg`/TypeORM code as in a cluster.
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
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const [{ PGlite }, { PGLiteSocketServer }] = await Promise.all([import('@electric-sql/pglite'), import('@electric-sql/pglite-socket')]);
  if (!options.dataDir.startsWith('memory://')) await mkdir(options.dataDir, { recursive: true });
  const initial = options.initialData && options.dataDir.startsWith('memory://') ? new Blob([await readFile(options.initialData)]) : undefined;
  const db = await PGlite.create(options.dataDir, initial ? { loadDataDir: initial } : {});
  const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1', maxConnections: options.maxConnections });
  await server.start();
  // Port 0: the OS picks a free port at bind time (no window for another process to take it);
  // the socket server keeps its net.Server in a private field, the only place to read it.
  const bound = (server as unknown as { server?: Server }).server?.address();
  if (!bound || typeof bound !== 'object') throw new Error('the embedded database did not report its port');
  const proxy = await startSerializingProxy(bound.port, options.port);
  return {
    url: `postgres://postgres@127.0.0.1:${proxy.port}/postgres`,
    port: proxy.port,
    async close() {
      await proxy.close();
      await server.stop();
      await db.close();
    },
  };
}

/**
 * Makes the archive `initialData` starts from: an empty in-memory PGlite, prepared by `prepare`
 * (given its wire URL: run migrations there), then its data folder written to `file` (through a
 * temporary name, so a reader never sees half a file).
 */
export async function dumpEmbeddedPostgres(file: string, prepare: (url: string) => Promise<void>): Promise<void> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const db = await PGlite.create('memory://');
  const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1', maxConnections: 8 });
  await server.start();
  const bound = (server as unknown as { server?: Server }).server?.address();
  if (!bound || typeof bound !== 'object') throw new Error('the embedded database did not report its port');
  const proxy = await startSerializingProxy(bound.port, 0);
  try {
    await prepare(`postgres://postgres@127.0.0.1:${proxy.port}/postgres`);
  } finally {
    await proxy.close();
    await server.stop();
  }
  const archive = await db.dumpDataDir('none');
  await db.close();
  const partial = `${file}.${process.pid}.partial`;
  await writeFile(partial, Buffer.from(await archive.arrayBuffer()));
  await rename(partial, file);
}
