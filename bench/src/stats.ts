/** Nearest-rank percentile of durations (ms); `p` in 0..100. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Runs `work` `rounds` times in a row and returns each duration in milliseconds. */
export async function timeRounds(rounds: number, work: () => Promise<void>): Promise<number[]> {
  const durations: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const started = process.hrtime.bigint();
    await work();
    durations.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return durations;
}
