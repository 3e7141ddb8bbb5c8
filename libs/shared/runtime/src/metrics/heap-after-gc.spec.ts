import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Registry } from 'prom-client';
import { HEAP_AFTER_GC_METRIC, registerHeapAfterGc } from './heap-after-gc';

/** A full collection on demand, without starting Jest with --expose-gc. */
function fullGc(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

async function value(registry: Registry): Promise<number> {
  const metric = await registry.getSingleMetric(HEAP_AFTER_GC_METRIC)!.get();
  return metric.values[0]?.value ?? Number.NaN;
}

describe('registerHeapAfterGc', () => {
  it('reports the heap left after the last full collection, and follows what is kept', async () => {
    const registry = new Registry();
    registerHeapAfterGc(registry);
    fullGc();
    // The observer hears of a collection asynchronously.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const before = await value(registry);
    expect(before).toBeGreaterThan(0);

    // About 20 MiB that stay reachable (arrays of 128 Ki small integers, 8 bytes each) must show in the next reading.
    const kept = Array.from({ length: 20 }, () => new Array<number>(128 * 1024).fill(1));
    fullGc();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const after = await value(registry);
    expect(after - before).toBeGreaterThan(10 * 2 ** 20);
    expect(kept.length).toBe(20);
  });

  it('shares one observer between registries (embedded mode: one process, a registry per service)', async () => {
    const first = new Registry();
    const second = new Registry();
    registerHeapAfterGc(first);
    registerHeapAfterGc(second);
    fullGc();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await value(first)).toBe(await value(second));
  });
});
