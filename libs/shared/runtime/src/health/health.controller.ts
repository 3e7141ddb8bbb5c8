import { PRODUCT_VERSION } from '@doable/shared-logging';
import { EVENT_BUS, type EventBus } from '@doable/shared-transport';
import { Controller, Get, Inject, Optional, Res } from '@nestjs/common';
import { Database } from '../service/database';
import { StoppingState } from '../stop/stopping-state';
import { databaseAnswers } from './database-answers';

interface StatusResponse {
  status(code: number): unknown;
}

/**
 * Liveness says the process runs; readiness says it can serve: its database answers and its
 * broker connection is up. Kubernetes routes traffic only to ready replicas. A stopping replica
 * answers 503 (reason `stopping`) at once, while it still serves, so balancers stop sending first.
 * Both name the release the process runs (`version`), so a rolling update can be watched
 * replica by replica.
 */
@Controller('health')
export class HealthController {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly stopping: StoppingState,
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
    const ok = Object.values(checks).every((state) => state === 'up');
    res.status(ok ? 200 : 503);
    return { status: ok ? 'ok' : 'error', checks, version: PRODUCT_VERSION };
  }
}
