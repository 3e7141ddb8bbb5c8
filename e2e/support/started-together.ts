/**
 * Independent runs (client processes, each with accounts of its own) started together the first
 * time any of them is asked for, and awaited by their own tests: a test asserts its run's report,
 * and a failed run fails only its test.
 */
export function startedTogether<K, T>(keys: readonly K[], start: (key: K) => Promise<T>): (key: K) => Promise<T> {
  const runs = new Map<K, Promise<T>>();
  return (key) => {
    if (runs.size === 0) {
      for (const each of keys) {
        const run = start(each);
        // Awaited by its own test later: until then its failure is not an unhandled rejection.
        run.catch(() => undefined);
        runs.set(each, run);
      }
    }
    const run = runs.get(key);
    if (!run) throw new Error(`no run named ${String(key)}`);
    return run;
  };
}
