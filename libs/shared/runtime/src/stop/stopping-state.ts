import { Injectable } from '@nestjs/common';

/** Whether the service is stopping: readiness answers 503 (reason `stopping`) from then on. */
@Injectable()
export class StoppingState {
  private since?: number;

  get stopping(): boolean {
    return this.since !== undefined;
  }

  markStopping(): void {
    this.since ??= Date.now();
  }
}
