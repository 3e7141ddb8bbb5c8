import { type Logger, outsideRequest } from '@doable/shared-logging';

/**
 * A look that a service repeats on a timer (the backup schedule, webhook deliveries): never two
 * at once on one replica (a slow look is not overtaken by the next tick), and a failed look is
 * logged and tried again at the next tick rather than stopping the timer. The timer does not keep
 * the process alive; replicas share the work through their own claims (SKIP LOCKED), not here.
 */
export class PeriodicTask {
  private timer?: NodeJS.Timeout;
  private running = false;
  /** Settles when the look under way (if any) has ended. */
  private settled: Promise<void> = Promise.resolve();
  /** A wake arrived during a look: look once more right after it. */
  private wokenMeanwhile = false;

  constructor(
    private readonly look: () => Promise<unknown>,
    private readonly options: { readonly intervalMs: number; readonly logger: Logger; readonly failure: string },
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.options.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * Stops, and answers once the look under way has ended: a graceful stop waits for it, so what
   * the look began (a webhook POST, a mail handed to the server) is recorded as done before the
   * pool closes, rather than left claimed and sent again by another replica after its lease.
   * At most `boundMs`: the process's stop has a bound of its own (STOP_TIMEOUT_MS, 10 s).
   */
  async stopAndSettle(boundMs: number): Promise<void> {
    this.stop();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.settled, new Promise<void>((resolve) => (timer = setTimeout(resolve, boundMs)))]);
    clearTimeout(timer);
  }

  /**
   * Looks now instead of at the next tick (something known to be due has just been recorded).
   * Wakes during a look coalesce into one more look after it, since that look may have started
   * before the new work was visible; a burst of wakes costs one extra look, not one each. The
   * timer stays as the safety net (a wake lost to a crash, work recorded by another replica).
   * Ignored before start and after stop. The look runs outside the waking request's context
   * (its span and correlation id): it serves whatever is due, not that request.
   */
  wake(): void {
    if (this.timer === undefined) return;
    if (this.running) this.wokenMeanwhile = true;
    else outsideRequest(() => void this.tick());
  }

  private tick(): Promise<void> {
    if (this.running) return this.settled;
    this.running = true;
    this.settled = this.looks();
    return this.settled;
  }

  private async looks(): Promise<void> {
    try {
      // A loop, not a recursive tick: a look woken without pause would otherwise chain promises for as long as the wakes go on.
      do {
        this.wokenMeanwhile = false;
        try {
          await this.look();
        } catch (err) {
          this.options.logger.warn({ err }, this.options.failure);
        }
      } while (this.wokenMeanwhile && this.timer !== undefined);
    } finally {
      this.running = false;
    }
  }
}
