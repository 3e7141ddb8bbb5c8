import { setTimeout as sleep } from 'node:timers/promises';
import { type DataFolderHolder, type DataFolderLock, readDataFolderHolder, tryLockDataFolder, waitForDataFolder } from './data-folder-lock';
import { type EmbeddedRuntime, readRuntimeFile, removeRuntimeFile, writeRuntimeFile } from './embedded-runtime-file';

/** Who has an embedded data folder: the lock's holder and, once it serves, its addresses. */
export interface DataFolderOwner extends DataFolderHolder {
  readonly runtime?: EmbeddedRuntime;
}

/** The folder is this process's: it may open the database, and must close it before giving the folder up. */
export class DataFolderOwnership {
  constructor(private readonly lock: DataFolderLock) {}

  get dataDir(): string {
    return this.lock.dataDir;
  }

  /** Tells the operator CLI and a refused second start where this system serves (the runtime file). */
  publish(addresses: Omit<EmbeddedRuntime, 'pid'>): Promise<void> {
    return writeRuntimeFile(this.dataDir, { pid: process.pid, ...addresses });
  }

  /**
   * Closes the database, then removes the runtime file, then gives the folder up: in that order,
   * so no start and no CLI opens the folder while this database may still write to it. A close
   * that fails keeps both: the process is ending, and the kernel frees the folder when it has.
   */
  async close(closeDatabase: () => Promise<void>): Promise<void> {
    await closeDatabase();
    await removeRuntimeFile(this.dataDir, process.pid);
    await this.lock.release();
  }
}

/** What a start or the CLI gets: the folder itself, or the system that already serves it. */
export type DataFolderClaim =
  | { readonly kind: 'owned'; readonly ownership: DataFolderOwnership }
  | { readonly kind: 'served'; readonly owner: DataFolderOwner & { readonly runtime: EmbeddedRuntime } };

export interface ClaimOptions {
  /** In words, for the lock's record: `npm start`, `the operator CLI`. */
  readonly holder: string;
  /** Wait for the folder to be free even when a system serves it (`npm start -- --wait`). */
  readonly waitUntilFree?: boolean;
  /** Called once, when the folder is held and this claim will wait. */
  readonly onWaiting?: (owner: DataFolderOwner | undefined) => void;
  /** How long to wait for a holder that does not serve yet (starting, or a CLI command) to serve or to leave. */
  readonly patienceMs?: number;
}

/** A refused claim: the folder stayed held by a process that never served within the patience. */
export class DataFolderBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly owner: DataFolderOwner | undefined,
  ) {
    super(`the data folder ${dataDir} is in use by ${describeOwner(owner)}`);
  }
}

const LOOK_AGAIN_MS = 200;
const DEFAULT_PATIENCE_MS = 180_000;

/**
 * Takes the data folder, or finds the system serving it. A holder that does not serve yet (a
 * start still opening the database, or a short CLI command) is waited for, within the patience:
 * it either publishes its address, which is the answer, or leaves, and the folder is taken.
 */
export async function claimDataFolder(dataDir: string, options: ClaimOptions): Promise<DataFolderClaim> {
  const deadline = Date.now() + (options.patienceMs ?? DEFAULT_PATIENCE_MS);
  let waiting = false;
  for (;;) {
    const lock = await tryLockDataFolder(dataDir, options.holder);
    if (lock) return { kind: 'owned', ownership: new DataFolderOwnership(lock) };
    const owner = await findDataFolderOwner(dataDir);
    if (options.waitUntilFree) {
      options.onWaiting?.(owner);
      return { kind: 'owned', ownership: new DataFolderOwnership(await waitForDataFolder(dataDir, options.holder)) };
    }
    if (owner?.runtime) return { kind: 'served', owner: { ...owner, runtime: owner.runtime } };
    if (Date.now() >= deadline) throw new DataFolderBusyError(dataDir, owner);
    if (!waiting) options.onWaiting?.(owner);
    waiting = true;
    await sleep(LOOK_AGAIN_MS);
  }
}

/** The holder's record, with its addresses when the runtime file is its own (a stale one is not). */
export async function findDataFolderOwner(dataDir: string): Promise<DataFolderOwner | undefined> {
  const holder = await readDataFolderHolder(dataDir);
  if (!holder) return undefined;
  const runtime = await readRuntimeFile(dataDir);
  return runtime?.pid === holder.pid ? { ...holder, runtime } : holder;
}

/** `pid 123 (npm start, http://127.0.0.1:8080)`, for refusal and waiting lines. */
export function describeOwner(owner: DataFolderOwner | undefined): string {
  if (!owner) return 'another process (it has not written its pid yet)';
  return `pid ${owner.pid} (${owner.holder}, ${owner.runtime?.url ?? 'not serving yet'})`;
}
