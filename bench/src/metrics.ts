import { readFileSync } from 'node:fs';

/** Resident set size of a service, from its Prometheus endpoint (prom-client's default metric). */
export async function residentBytes(baseUrl: string): Promise<number | undefined> {
  try {
    const response = await fetch(new URL('/metrics', baseUrl), { signal: AbortSignal.timeout(5_000) });
    if (!response.ok) return undefined;
    const match = /^process_resident_memory_bytes(?:\{[^}]*\})?\s+([0-9.e+]+)/m.exec(await response.text());
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** RSS in MiB of each named service, read concurrently. */
export async function residentMiB(services: ReadonlyMap<string, string>): Promise<Record<string, number | null>> {
  const entries = await Promise.all(
    [...services].map(async ([name, url]) => {
      const bytes = await residentBytes(url);
      return [name, bytes === undefined ? null : Math.round((bytes / 1024 / 1024) * 10) / 10] as const;
    }),
  );
  return Object.fromEntries(entries);
}

/** Samples a service's RSS every `intervalMs` until stopped; `stop` gives the highest sample, in MiB. */
export function sampleResidentPeak(baseUrl: string, intervalMs = 100): { stop(): Promise<number | undefined> } {
  let peak: number | undefined;
  let running = true;
  const loop = (async () => {
    while (running) {
      const bytes = await residentBytes(baseUrl);
      if (bytes !== undefined) peak = Math.max(peak ?? 0, bytes);
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return peak === undefined ? undefined : Math.round((peak / 1024 / 1024) * 10) / 10;
    },
  };
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
