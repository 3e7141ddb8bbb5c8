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
    /** The reading after a full collection (twice: the first may leave what the second frees; the observer hears of it asynchronously). */
    const settled = async (): Promise<number> => {
      fullGc();
      fullGc();
      await new Promise((resolve) => setTimeout(resolve, 50));
      return value(registry);
    };

    // About 20 MiB that stay reachable (arrays of 128 Ki small integers, 8 bytes each), read
    // with and without them: the difference is what was kept, whatever else the process holds.
    let kept: number[][] = Array.from({ length: 20 }, () => new Array<number>(128 * 1024).fill(1));
    const withKept = await settled();
    expect(withKept).toBeGreaterThan(0);
    expect(kept.length).toBe(20);
    kept = [];
    const withoutKept = await settled();
    expect(withKept - withoutKept).toBeGreaterThan(10 * 2 ** 20);
    expect(kept).toEqual([]);
    // Four full collections of a worker's heap, which may also hold the e2e tier's shared systems
    // (over 60 s at load 20).
  }, 180_000);

  it('shares one observer between registries (embedded mode: one process, a registry per service)', async () => {
    const first = new Registry();
    const second = new Registry();
    registerHeapAfterGc(first);
    registerHeapAfterGc(second);
    fullGc();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await value(first)).toBe(await value(second));
  }, 60_000);
});
