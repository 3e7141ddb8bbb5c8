import { mkdir, readFile } from 'node:fs/promises';
import type { Server } from 'node:net';
import { startSerializingProxy } from './serializing-proxy';

/**
 * PGlite and the wire endpoint in front of it (pglite-socket behind the serialising proxy), in
 * whichever thread calls it: the embedded mode runs it in a worker thread
 * (embedded-postgres.worker.ts), the fixture dump in the caller's own.
 *
 * Only relative imports and packages here: the worker loads this file outside the path aliases.
 */
export interface PgliteServerOptions {
  /** Folder that keeps the data between runs; `memory://` for a throwaway database. */
  readonly dataDir: string;
  /** Port of the serialising proxy, the database's address for clients; 0 picks a free one. */
  readonly port: number;
  /** At least the sum of every client's pool size. */
  readonly maxConnections: number;
  /** A throwaway (`memory://`) database starts as a copy of this data folder archive. */
  readonly initialData?: string;
}

export interface PgliteServer {
  /** The serialising proxy's port on 127.0.0.1. */
  readonly port: number;
  /** Stops accepting connections; the database stays open (the dump reads it afterwards). */
  stopServing(): Promise<void>;
  /** The data folder as an uncompressed archive (PGlite's `loadDataDir` format). */
  dump(): Promise<Blob>;
  /** Stops serving and closes PGlite, which writes what it holds to the data folder. */
  close(): Promise<void>;
}

export async function startPgliteServer(options: PgliteServerOptions): Promise<PgliteServer> {
  const [{ PGlite }, { PGLiteSocketServer }] = await Promise.all([import('@electric-sql/pglite'), import('@electric-sql/pglite-socket')]);
  const inMemory = options.dataDir.startsWith('memory://');
  if (!inMemory) await mkdir(options.dataDir, { recursive: true });
  const initial = options.initialData && inMemory ? new Blob([await readFile(options.initialData)]) : undefined;
  const db = await PGlite.create(options.dataDir, initial ? { loadDataDir: initial } : {});
  const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1', maxConnections: options.maxConnections });
  try {
    await server.start();
    // Port 0: the OS picks a free port at bind time (no window for another process to take it);
    // the socket server keeps its net.Server in a private field, the only place to read it.
    const bound = (server as unknown as { server?: Server }).server?.address();
    if (!bound || typeof bound !== 'object') throw new Error('the embedded database did not report its port');
    const proxy = await startSerializingProxy(bound.port, options.port);
    let stopped: Promise<void> | undefined;
    let closed: Promise<void> | undefined;
    const stopServing = () => (stopped ??= proxy.close().then(() => server.stop()));
    return {
      port: proxy.port,
      stopServing,
      dump: () => db.dumpDataDir('none'),
      close: () => (closed ??= stopServing().then(() => db.close())),
    };
  } catch (err) {
    await server.stop().catch(() => undefined);
    await db.close().catch(() => undefined);
    throw err;
  }
}
