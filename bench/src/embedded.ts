import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { until } from './poll';
import type { BenchAccount } from './accounts';
import { benchEntry, type Child, spawnNode } from './processes';

export interface Embedded {
  readonly url: string;
  /** PGlite over the Postgres wire protocol, served by the embedded process itself (from its worker thread). */
  readonly databaseUrl: string;
  /** The OS id of the embedded process's PGlite thread (Linux), to read its CPU time apart. */
  readonly databaseThreadId?: number;
  readonly accounts: readonly BenchAccount[];
  readonly child: Child;
  close(): Promise<void>;
}

/** Starts the embedded system in its own process with `count` accounts ready to sync. */
export async function startEmbedded(runId: string, count: number, options: { cpuProfileDir?: string } = {}): Promise<Embedded> {
  // Node writes one profile per thread (PGlite runs in a worker thread) and --cpu-prof-name would
  // give both the same file: they land in a folder of their own, named by thread at the end.
  const ownDir = options.cpuProfileDir ? join(options.cpuProfileDir, 'embedded-threads') : undefined;
  if (ownDir) await mkdir(ownDir, { recursive: true });
  const nodeArgs = ownDir ? ['--cpu-prof', '--cpu-prof-dir', ownDir] : [];
  const child = spawnNode('embedded', benchEntry('embedded-host.js'), [runId, String(count)], {}, { nodeArgs });
  const ready = await until(
    () => {
      if (child.process.exitCode !== null) throw new Error(`embedded host exited: ${child.output()}`);
      const line = child
        .output()
        .split('\n')
        .find((text) => text.startsWith('READY '));
      return line ? (JSON.parse(line.slice('READY '.length)) as { url: string; databaseUrl: string; databaseThreadId?: number; accounts: BenchAccount[] }) : undefined;
    },
    'the embedded system and its accounts',
    180_000,
  ).catch(async (err: unknown) => {
    const tail = child.output().slice(-1_500);
    await child.stop();
    throw new Error(`${err instanceof Error ? err.message : String(err)}; its output ends with: ${tail}`);
  });
  return {
    ...ready,
    child,
    async close() {
      await child.stop();
      if (ownDir) await nameThreadProfiles(ownDir, options.cpuProfileDir!);
    },
  };
}

/** `CPU.<date>.<time>.<pid>.<thread id>.<seq>.cpuprofile`: thread 0 is the main thread, the other PGlite's. */
async function nameThreadProfiles(from: string, to: string): Promise<void> {
  for (const file of await readdir(from)) {
    const thread = /^CPU\.\d+\.\d+\.\d+\.(\d+)\.\d+\.cpuprofile$/.exec(file)?.[1];
    if (thread !== undefined) await rename(join(from, file), join(to, thread === '0' ? 'embedded.cpuprofile' : `embedded-pglite-thread-${thread}.cpuprofile`));
  }
  await rm(from, { recursive: true, force: true });
}
