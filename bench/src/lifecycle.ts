import { stopAllChildren } from './processes';

/**
 * What the run must undo however it ends (success, error, Ctrl-C, the global time bound):
 * databases to drop, JetStream streams to delete. Children are always stopped first.
 */
const cleanups: Array<{ what: string; run: () => Promise<void> }> = [];
/** Cleanups started by their owner (a cluster closing) that the exit path must still wait for. */
const inFlight = new Set<Promise<void>>();

/** Registers an undo step; the function returned runs it now (once) and forgets it. */
export function onCleanup(what: string, run: () => Promise<void>): () => Promise<void> {
  const entry = { what, run };
  cleanups.push(entry);
  return async () => {
    const index = cleanups.indexOf(entry);
    if (index < 0) return;
    cleanups.splice(index, 1);
    const running = run();
    inFlight.add(running);
    try {
      await running;
    } finally {
      inFlight.delete(running);
    }
  };
}

let cleaning: Promise<void> | undefined;

export function cleanUpEverything(): Promise<void> {
  cleaning ??= (async () => {
    await stopAllChildren();
    for (const { what, run } of cleanups.splice(0).reverse()) {
      await run().catch((err: unknown) => process.stderr.write(`cleanup of ${what} failed: ${err instanceof Error ? err.message : String(err)}\n`));
    }
    await Promise.allSettled([...inFlight]);
  })();
  return cleaning;
}

/** Ctrl-C, SIGTERM and the overall time bound all end the same way: clean up, then exit. */
export function installExitHandlers(overallBoundMs: number): void {
  const abort = (reason: string, code: number) => {
    process.stderr.write(`\nbench: ${reason}, stopping every child and cleaning up\n`);
    void cleanUpEverything().finally(() => process.exit(code));
  };
  process.once('SIGINT', () => abort('interrupted', 130));
  process.once('SIGTERM', () => abort('terminated', 143));
  setTimeout(() => abort(`still running after ${Math.round(overallBoundMs / 60_000)} min`, 124), overallBoundMs).unref();
}
