/**
 * In a cluster, rate-limit windows are aligned to the clock (every gateway replica must count
 * the same slot), so a test whose requests straddle a window's end would see its count reset
 * half-way. The rate-limit suites use day-long windows and, in the rare run that starts near a
 * window's end (around midnight UTC), wait until the next window has begun: never a flaky
 * count, and almost never a wait.
 */
export const TEST_RATE_WINDOW_SECONDS = 86_400;

/** Resolves once no window of these lengths ends within `marginMs` from now. */
export async function clearOfRateWindowEdges(windowSeconds: readonly number[], marginMs = 60_000): Promise<void> {
  const now = Date.now();
  const untilEnd = Math.min(...windowSeconds.map((seconds) => seconds * 1000 - (now % (seconds * 1000))));
  if (untilEnd < marginMs) await new Promise((resolve) => setTimeout(resolve, untilEnd + 50));
}
