import { readFileSync } from 'node:fs';

/** Gauges of a service, by name, from one read of its Prometheus endpoint (undefined: not there, or the service did not answer). */
export async function gaugeBytes<Name extends string>(baseUrl: string, names: readonly Name[]): Promise<Record<Name, number | undefined>> {
  const text = await fetch(new URL('/metrics', baseUrl), { signal: AbortSignal.timeout(5_000) })
    .then((response) => (response.ok ? response.text() : ''))
    .catch(() => '');
  const values = {} as Record<Name, number | undefined>;
  for (const name of names) {
    const match = new RegExp(`^${name}(?:\\{[^}]*\\})?\\s+([0-9.e+]+)`, 'm').exec(text);
    values[name] = match ? Number(match[1]) : undefined;
  }
  return values;
}

/** Resident set size of a service, from its Prometheus endpoint (prom-client's default metric). */
export async function residentBytes(baseUrl: string): Promise<number | undefined> {
  return (await gaugeBytes(baseUrl, ['process_resident_memory_bytes'])).process_resident_memory_bytes;
}

const toMiB = (bytes: number | undefined) => (bytes === undefined ? null : Math.round((bytes / 1024 / 1024) * 10) / 10);

/**
 * Each service's RSS and its V8 heap left after the last full collection (the runtime's
 * `doable_heap_used_after_major_gc_bytes`; null before its first full collection), in MiB.
 * RSS rises for minutes in a healthy Node process (the heap's reserved size, JIT code, freed
 * pages malloc keeps); the heap after a collection rises only with what is kept.
 */
export async function memoryMiB(services: ReadonlyMap<string, string>): Promise<{ rss: Record<string, number | null>; heapAfterGc: Record<string, number | null> }> {
  const entries = await Promise.all([...services].map(async ([name, url]) => [name, await gaugeBytes(url, ['process_resident_memory_bytes', 'doable_heap_used_after_major_gc_bytes'])] as const));
  return {
    rss: Object.fromEntries(entries.map(([name, values]) => [name, toMiB(values.process_resident_memory_bytes)])),
    // 0 means no full collection yet: no reading.
    heapAfterGc: Object.fromEntries(entries.map(([name, values]) => [name, toMiB(values.doable_heap_used_after_major_gc_bytes || undefined)])),
  };
}

/** RSS in MiB of each named service, read concurrently. */
export async function residentMiB(services: ReadonlyMap<string, string>): Promise<Record<string, number | null>> {
  const entries = await Promise.all([...services].map(async ([name, url]) => [name, toMiB(await residentBytes(url))] as const));
  return Object.fromEntries(entries);
}

/** Resident set size of a process this suite started, in bytes (`VmRSS` of /proc/<pid>/status; Linux only). */
export function residentBytesOfPid(pid: number): number | undefined {
  try {
    const kib = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kib === undefined ? undefined : Number(kib) * 1024;
  } catch {
    return undefined;
  }
}

/**
 * Samples processes' RSS from /proc every `intervalMs` until stopped (no request to the process
 * measured, so it is cheap enough to sample a fast stream); `stop` gives each one's highest sample, in bytes.
 */
export function samplePidPeaks(pids: readonly number[], intervalMs = 20): { stop(): number[] } {
  const peaks = pids.map((pid) => residentBytesOfPid(pid) ?? 0);
  const sample = () => pids.forEach((pid, index) => (peaks[index] = Math.max(peaks[index], residentBytesOfPid(pid) ?? 0)));
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return [...peaks];
    },
  };
}
