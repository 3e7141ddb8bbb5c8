import type { Logger } from '@doable/shared-logging';
import type { StopSettings } from './stop-settings';

/** What a process stops: one service, or the embedded system's nine. */
export interface Stoppable {
  /** Readiness answers 503 (reason `stopping`) from now on; everything else still serves. */
  markStopping(): void;
  /** After the drain: HTTP and push connections, then consumers after their current message, then pools. */
  close(): Promise<void>;
  /** For the deadline's log line: what had not closed yet. */
  stillOpen(): Record<string, unknown>;
  /** The deadline passed: cut every connection left. */
  forceClose(): void;
}

export interface StopOptions {
  readonly settings: StopSettings;
  readonly logger: Logger;
  /** The signal (or the parent's end) that asked for the stop, for the log. */
  readonly reason: string;
  /** Ends the process: 0 once everything closed, 1 when the deadline or an error cut the stop short. */
  readonly exit: (code: number) => void;
}

/**
 * The one stop of every process (a cluster service and the embedded system): readiness goes
 * down at once, so a balancer stops sending; the process keeps serving for the drain while it
 * notices; then everything closes in order. A deadline bounds the whole stop whatever the
 * clients do: Kubernetes would SIGKILL a process that outlives its grace period anyway, and a
 * process that exits on its own says what was still open.
 */
export async function stopGracefully(target: Stoppable, { settings, logger, reason, exit }: StopOptions): Promise<void> {
  const started = Date.now();
  let step = 'not-ready';
  const deadline = setTimeout(() => {
    logger.error({ reason, step, afterMs: Date.now() - started, stillOpen: target.stillOpen() }, 'stop: deadline reached; cutting what is still open');
    try {
      target.forceClose();
    } finally {
      exit(1);
    }
  }, settings.timeoutMs);
  const run = async (name: string, work: () => Promise<void> | void) => {
    step = name;
    const stepStarted = Date.now();
    await work();
    logger.info({ step: name, ms: Date.now() - stepStarted }, `stop: ${name} done`);
  };
  logger.info({ reason, drainMs: settings.drainMs, timeoutMs: settings.timeoutMs }, 'stopping');
  try {
    await run('not-ready', () => target.markStopping());
    if (settings.drainMs > 0) await run('drain', () => new Promise<void>((resolve) => setTimeout(resolve, settings.drainMs)));
    await run('close', () => target.close());
  } catch (err) {
    clearTimeout(deadline);
    logger.error({ err, step }, 'stop failed');
    exit(1);
    return;
  }
  clearTimeout(deadline);
  logger.info({ reason, ms: Date.now() - started }, 'stopped');
  exit(0);
}
