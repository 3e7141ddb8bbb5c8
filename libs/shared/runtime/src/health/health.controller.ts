import { PRODUCT_VERSION } from '@doable/shared-logging';
import { EVENT_BUS, type EventBus } from '@doable/shared-transport';
import { Controller, Get, Inject, Optional, Res } from '@nestjs/common';
import type { EventLoopDelay } from './event-loop-delay';
import { Database } from '../service/database';
import type { RuntimeConfig } from '../service/service-config';
import { EVENT_LOOP_DELAY, SERVICE_CONFIG } from '../service/tokens';
import { StoppingState } from '../stop/stopping-state';
import { databaseAnswers } from './database-answers';

interface StatusResponse {
  status(code: number): unknown;
}

/**
 * Liveness says the process runs; readiness says it can serve: its database answers, its
 * broker connection is up, and its event loop has not stayed delayed past its limit for the
 * configured window. Kubernetes routes traffic only to ready replicas. A stopping replica
 * answers 503 (reason `stopping`) at once, while it still serves, so balancers stop sending
 * first. Both name the release the process runs (`version`), so a rolling update can be
 * watched replica by replica.
 */
@Controller('health')
export class HealthController {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly stopping: StoppingState,
    @Inject(EVENT_LOOP_DELAY) private readonly delay: EventLoopDelay,
    @Inject(SERVICE_CONFIG) private readonly config: Pick<RuntimeConfig, 'EVENT_LOOP_DELAY_LIMIT_MS' | 'EVENT_LOOP_DELAY_WINDOW_MS'>,
    @Optional() private readonly database?: Database,
  ) {}

  @Get('live')
  live(): { status: 'ok'; version: string } {
    return { status: 'ok', version: PRODUCT_VERSION };
  }

  @Get('ready')
  async ready(@Res({ passthrough: true }) res: StatusResponse): Promise<{ status: 'ok' | 'error'; reason?: 'stopping'; checks: Record<string, 'up' | 'down'>; version: string }> {
    if (this.stopping.stopping) {
      res.status(503);
      return { status: 'error', reason: 'stopping', checks: {}, version: PRODUCT_VERSION };
    }
    const checks: Record<string, 'up' | 'down'> = { broker: this.bus.isConnected() ? 'up' : 'down' };
    if (this.database) checks['database'] = (await databaseAnswers(this.database)) ? 'up' : 'down';
    checks['event_loop'] = this.delay.highFor(this.config.EVENT_LOOP_DELAY_LIMIT_MS) >= this.config.EVENT_LOOP_DELAY_WINDOW_MS ? 'down' : 'up';
    const ok = Object.values(checks).every((state) => state === 'up');
    res.status(ok ? 200 : 503);
    return { status: ok ? 'ok' : 'error', checks, version: PRODUCT_VERSION };
  }
}
