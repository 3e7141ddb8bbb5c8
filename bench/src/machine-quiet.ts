import { readFile } from 'node:fs/promises';

/** How quiet is quiet: below a quarter of the machine's CPU for two one-second windows in a row. */
const BUSY_BELOW = 0.25;
const WINDOWS = 2;
const WINDOW_MS = 1_000;
/** A machine that never settles (other suites beside the bench) is measured anyway, and says so. */
const BOUND_MS = 60_000;

export interface Settled {
  readonly quiet: boolean;
  readonly waitedMs: number;
  /** Share of all cores busy in the last window read, 0..1. */
  readonly busy: number;
}

/** Busy and total jiffies of all CPUs so far, from /proc/stat's first line (Linux only). */
async function cpuJiffies(): Promise<{ busy: number; total: number } | undefined> {
  const line = (await readFile('/proc/stat', 'utf8').catch(() => '')).split('\n')[0] ?? '';
  if (!line.startsWith('cpu ')) return undefined;
  const fields = line.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((sum, value) => sum + value, 0);
  // idle and iowait are the 4th and 5th fields.
  return { busy: total - (fields[3] ?? 0) - (fields[4] ?? 0), total };
}

/**
 * Waits until the machine is quiet before a scenario: what the previous one set off (an outbox
 * backlog, webhook deliveries, replicas stopping, V8 collecting) would otherwise be measured as
 * part of the next. Bounded; the caller notes how it went in the scenario's rows.
 */
export async function untilQuiet(): Promise<Settled> {
  const started = Date.now();
  let quietWindows = 0;
  let busy = 0;
  let before = await cpuJiffies();
  if (!before) return { quiet: false, waitedMs: 0, busy: Number.NaN };
  while (Date.now() - started < BOUND_MS) {
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
    const now = await cpuJiffies();
    if (!now) break;
    busy = (now.busy - before.busy) / Math.max(1, now.total - before.total);
    before = now;
    quietWindows = busy < BUSY_BELOW ? quietWindows + 1 : 0;
    if (quietWindows >= WINDOWS) return { quiet: true, waitedMs: Date.now() - started, busy };
  }
  return { quiet: false, waitedMs: Date.now() - started, busy };
}

/** The row note saying how the machine was when the scenario started. */
export function settledNote(settled: Settled): string {
  const busy = `${Math.round(settled.busy * 100)}% of all cores busy in the last second`;
  return settled.quiet
    ? `started once the machine was quiet (${(settled.waitedMs / 1000).toFixed(0)} s wait; ${busy})`
    : `started without a quiet machine: still ${busy} after ${(settled.waitedMs / 1000).toFixed(0)} s (other work beside the bench, or the previous scenario's)`;
}
