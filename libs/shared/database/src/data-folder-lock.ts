import { constants } from 'node:fs';
import { type FileHandle, mkdir, open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tryLock, unlock, waitForLock } from 'fs-native-extensions';

/**
 * One owner per embedded data folder: an exclusive lock on `<folder>/doable.lock`, held by the
 * process for as long as it may open the folder's database. The kernel holds it (fcntl
 * open-file-description locks on Linux, flock elsewhere, through fs-native-extensions) and
 * drops it when the process ends, however it ends, so a crash leaves no stale claim; and taking
 * it is one atomic step, so two starts at the same moment cannot both succeed, as they could
 * when ownership was a pid file read then written.
 *
 * The lock file itself is never removed: a process waiting on it would otherwise hold a lock on
 * a file nobody else opens any more.
 */
export interface DataFolderLock {
  readonly dataDir: string;
  /** Gives the folder up; call it once the database is closed. Once only (later calls do nothing). */
  release(): Promise<void>;
}

/** Who holds a folder, as its holder wrote it into the lock file (for the refusal line). */
export interface DataFolderHolder {
  readonly pid: number;
  /** What holds it, in words a person knows: `npm start`, `the operator CLI`. */
  readonly holder: string;
}

const LOCK_FILE = 'doable.lock';

async function openLockFile(dataDir: string): Promise<FileHandle> {
  await mkdir(dataDir, { recursive: true });
  // Read-write without truncating: a refused opener must not erase the holder's record.
  return open(join(dataDir, LOCK_FILE), constants.O_RDWR | constants.O_CREAT, 0o600);
}

/** Takes the folder now, or answers undefined when another process (or another open here) holds it. */
export async function tryLockDataFolder(dataDir: string, holder: string): Promise<DataFolderLock | undefined> {
  const file = await openLockFile(dataDir);
  let locked = false;
  try {
    locked = tryLock(file.fd);
  } finally {
    if (!locked) await file.close();
  }
  return locked ? claim(file, dataDir, holder) : undefined;
}

/** Takes the folder as soon as its holder gives it up (the kernel queues the waiters). */
export async function waitForDataFolder(dataDir: string, holder: string): Promise<DataFolderLock> {
  const file = await openLockFile(dataDir);
  try {
    await waitForLock(file.fd);
  } catch (err) {
    await file.close();
    throw err;
  }
  return claim(file, dataDir, holder);
}

/** The holder's record; undefined if none is readable (nobody took the folder yet, or the holder is writing it). */
export async function readDataFolderHolder(dataDir: string): Promise<DataFolderHolder | undefined> {
  try {
    const record = JSON.parse(await readFile(join(dataDir, LOCK_FILE), 'utf8')) as Partial<DataFolderHolder>;
    return typeof record.pid === 'number' && typeof record.holder === 'string' ? { pid: record.pid, holder: record.holder } : undefined;
  } catch {
    return undefined;
  }
}

async function claim(file: FileHandle, dataDir: string, holder: string): Promise<DataFolderLock> {
  const record: DataFolderHolder = { pid: process.pid, holder };
  await file.truncate(0);
  await file.write(JSON.stringify(record), 0);
  let released: Promise<void> | undefined;
  const release = async () => {
    // The record goes first, while the lock still keeps the next holder from writing its own.
    await file.truncate(0).catch(() => undefined);
    unlock(file.fd);
    await file.close();
  };
  return { dataDir, release: () => (released ??= release()) };
}
