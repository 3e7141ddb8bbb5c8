import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Tells the operator CLI, and a second start that is refused, where the running embedded system
 * and its database are (mode 0600: it is local-only). Written once the system serves; removed
 * only after its database closed (see DataFolderOwnership), so while it is missing nobody has
 * the database open. Trusted only while its pid holds the folder's lock (data-folder-lock.ts).
 */
export interface EmbeddedRuntime {
  readonly pid: number;
  readonly url: string;
  readonly databaseUrl: string;
}

const FILE = 'embedded.json';

export async function writeRuntimeFile(dataDir: string, runtime: EmbeddedRuntime): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  await writeFile(join(dataDir, FILE), JSON.stringify(runtime), { mode: 0o600 });
}

/** Removes the file if `pid` wrote it: a process that stops late never removes its successor's. */
export async function removeRuntimeFile(dataDir: string, pid: number): Promise<void> {
  if ((await readRuntimeFile(dataDir))?.pid === pid) await rm(join(dataDir, FILE), { force: true });
}

/** Whether the process that wrote the runtime file still runs (a crash leaves a stale file). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function readRuntimeFile(dataDir: string): Promise<EmbeddedRuntime | undefined> {
  try {
    return JSON.parse(await readFile(join(dataDir, FILE), 'utf8')) as EmbeddedRuntime;
  } catch {
    return undefined;
  }
}
