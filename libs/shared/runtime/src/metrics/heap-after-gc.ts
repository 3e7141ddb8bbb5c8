import { constants, PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { Gauge, type Registry } from 'prom-client';

export const HEAP_AFTER_GC_METRIC = 'doable_heap_used_after_major_gc_bytes';

/** V8 heap in use right after the last full (mark-compact) collection; undefined before the first. */
let lastAfterMajorGc: number | undefined;
let observer: PerformanceObserver | undefined;

/**
 * The live heap, as far as a metric can tell it: `nodejs_heap_size_used_bytes` is read at any
 * moment and includes garbage not yet collected, and RSS also holds the heap's reserved size,
 * JIT code and freed malloc pages the allocator kept, so both rise for minutes in a healthy
 * process. What is still in use after a full collection rises only when something is kept: a
 * leak. Read in the GC observer's callback (delivered just after the collection), so it is
 * close to, not exactly, the collection's result. One observer per process; embedded mode's
 * services each register the gauge in their own registry. 0 until the first full collection.
 */
export function registerHeapAfterGc(registry: Registry): Gauge {
  observer ??= startObserving();
  return new Gauge({
    name: HEAP_AFTER_GC_METRIC,
    help: 'V8 heap used just after the last major (mark-compact) garbage collection; 0 before the first',
    registers: [registry],
    collect() {
      if (lastAfterMajorGc !== undefined) this.set(lastAfterMajorGc);
    },
  });
}

function startObserving(): PerformanceObserver {
  const gcObserver = new PerformanceObserver((list) => {
    // A gc entry's `detail` (Node 16+) says which collection it was; the typings do not declare it.
    const major = list.getEntries().some((entry) => (entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR);
    if (major) lastAfterMajorGc = getHeapStatistics().used_heap_size;
  });
  gcObserver.observe({ entryTypes: ['gc'] });
  return gcObserver;
}
