import type { Logger } from '@doable/shared-logging';

/**
 * A look that a service repeats on a timer (the backup schedule, webhook deliveries): never two
 * at once on one replica (a slow look is not overtaken by the next tick), and a failed look is
 * logged and tried again at the next tick rather than stopping the timer. The timer does not keep
 * the process alive; replicas share the work through their own claims (SKIP LOCKED), not here.
 */
export class PeriodicTask {
  private timer?: NodeJS.Timeout;
  private running = false;

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
  }

  private async tick(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      await this.look();
    } catch (err) {
      this.options.logger.warn({ err }, this.options.failure);
    } finally {
      this.running = false;
    }
  }
}
