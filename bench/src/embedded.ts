import { until } from './poll';
import type { BenchAccount } from './accounts';
import { benchEntry, type Child, spawnNode } from './processes';

export interface Embedded {
  readonly url: string;
  /** PGlite over the Postgres wire protocol, served by the embedded process itself. */
  readonly databaseUrl: string;
  readonly accounts: readonly BenchAccount[];
  readonly child: Child;
  close(): Promise<void>;
}

/** Starts the embedded system in its own process with `count` accounts ready to sync. */
export async function startEmbedded(runId: string, count: number, options: { cpuProfileDir?: string } = {}): Promise<Embedded> {
  const nodeArgs = options.cpuProfileDir ? ['--cpu-prof', '--cpu-prof-dir', options.cpuProfileDir, '--cpu-prof-name', 'embedded.cpuprofile'] : [];
  const child = spawnNode('embedded', benchEntry('embedded-host.js'), [runId, String(count)], {}, { nodeArgs });
  const ready = await until(
    () => {
      if (child.process.exitCode !== null) throw new Error(`embedded host exited: ${child.output()}`);
      const line = child
        .output()
        .split('\n')
        .find((text) => text.startsWith('READY '));
      return line ? (JSON.parse(line.slice('READY '.length)) as { url: string; databaseUrl: string; accounts: BenchAccount[] }) : undefined;
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
    },
  };
}
