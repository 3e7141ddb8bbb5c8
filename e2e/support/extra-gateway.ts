import { createLogger } from '@doable/shared-logging';
import { loadServiceConfig, type RunningService, startClusterService } from '@doable/shared-runtime';
import { gatewayService } from '@doable/gateway';
import type { ServiceDefinition } from '@doable/shared-runtime';
import type { SystemUnderTest } from './system-view';

/**
 * One more gateway replica beside a cluster system's own: same NATS and subject prefix, its
 * own process state (principal cache, rate counters, registration). Started here rather than
 * in the cluster harness, so the harness keeps one gateway.
 */
export async function startExtraGateway(system: SystemUnderTest, env: Record<string, string> = {}): Promise<RunningService> {
  const transport = system.natsTransport;
  if (!transport) throw new Error('an extra gateway needs a cluster system');
  const definition = gatewayService as unknown as ServiceDefinition;
  const config = loadServiceConfig(
    definition,
    { LOG_LEVEL: 'error', RATE_LIMIT_AUTH_REQUESTS: '0', ...env, NATS_URL: transport.url, NATS_SUBJECT_PREFIX: transport.subjectPrefix, PORT: '0', HOST: '127.0.0.1' },
    'cluster',
  );
  return startClusterService(definition, config, createLogger('gateway-2', config.LOG_LEVEL));
}
